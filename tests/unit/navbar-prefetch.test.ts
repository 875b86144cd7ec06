import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";

/** Every link the navigation renders, with what it was asked to prefetch. */
const links: { href: string; prefetch: unknown }[] = [];
vi.mock("next/link", () => ({
  default: ({ href, prefetch, children, ...anchor }: { href: string; prefetch?: unknown; children: ReactNode }) => {
    links.push({ href, prefetch });
    return createElement("a", { href, ...anchor }, children);
  },
}));
vi.mock("next/navigation", () => ({ usePathname: () => "/forum" }));

const { NavBar } = await import("@/components/layout/NavBar");

describe("the navigation's links", () => {
  // The directory's rule (CoupleCard): the signed-in pages are rendered per request, and a prefetch
  // per link on the screen is two requests and a parse on a phone's main thread as each page loads.
  it("prefetch none of the signed-in pages: the logo, the bar's and the tab bar's links", () => {
    links.length = 0;
    renderToString(createElement(NavBar, { moderator: true }));
    const hrefs = links.map((link) => link.href);
    expect(hrefs).toEqual(
      expect.arrayContaining(["/dashboard", "/forum", "/forum/local", "/directory", "/messages", "/profile", "/moderation"]),
    );
    expect(links.filter((link) => link.prefetch !== false)).toEqual([]);
  });
});
