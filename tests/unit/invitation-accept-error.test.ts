import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";

vi.mock("next/navigation", () => ({ useRouter: () => ({ refresh: () => {} }) }));

const { default: InvitationAcceptError } = await import("@/app/invitation/accept/error");

describe("the join page's error screen (the invitation's look-up failed)", () => {
  it("says, in section 8's words, that the invitation's details did not load, on the 'Invitation Link Issue' screen", () => {
    const html = renderToStaticMarkup(createElement(InvitationAcceptError, { error: new Error("connection reset"), reset: () => {} }));
    expect(html).toContain("Invitation Link Issue");
    expect(html).toMatch(/role="alert"[^>]*>Failed to load invitation details\. Please check the invitation link\.</);
    expect(html).toContain("This invitation may have expired, already been used, or the link may be damaged.");
    expect(html).not.toContain("connection reset");
  });
});
