import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";

/**
 * The e-mail change link's page names the address the account would move to before 'Confirm my
 * new email', so the owner can tell a change they never asked for; a link that is not the
 * signed-in account's (or no longer works) shows no address and no button.
 */
vi.mock("next/link", () => ({
  default: ({ href, children }: { href: string; children: ReactNode }) => createElement("a", { href }, children),
}));

const { ConfirmEmailChange } = await import("@/components/settings/ConfirmEmailChange");

const INVALID = "This link is invalid or has expired. Please ask for a new one in your security settings.";

describe("the e-mail change's confirmation page", () => {
  it("names the new address before the button", () => {
    const html = renderToString(createElement(ConfirmEmailChange, { token: "t".repeat(43), newEmail: "new.address@example.com" }));
    expect(html).toContain("new.address@example.com");
    expect(html.indexOf("new.address@example.com")).toBeLessThan(html.indexOf("Confirm my new email"));
    expect(html).not.toContain(INVALID);
  });

  it("says the link does not work, with no button, when the server found no change of this account's for it", () => {
    for (const props of [
      { token: "t".repeat(43), newEmail: null },
      { token: "", newEmail: null },
    ]) {
      const html = renderToString(createElement(ConfirmEmailChange, props));
      expect(html).toContain(INVALID);
      expect(html).not.toContain("Confirm my new email");
    }
  });
});
