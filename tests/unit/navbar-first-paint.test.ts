import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { EVENTS_COMING_SOON_TEXT } from "@/lib/events/coming-soon";

vi.mock("next/navigation", () => ({ usePathname: () => "/settings" }));

const { NavBar } = await import("@/components/layout/NavBar");

/**
 * Every signed-in page renders the navigation on the server and hydrates it: what no one can see
 * or reach until they ask for it (the IRL dialog, the phone's menu) is not part of that first paint.
 */
describe("the navigation's first paint", () => {
  it("renders the bar without the closed IRL dialog or the closed menu", () => {
    const html = renderToString(createElement(NavBar, { moderator: false }));
    expect(html).toContain(">IRL</button>");
    expect(html).not.toContain("<dialog");
    expect(html).not.toContain(EVENTS_COMING_SOON_TEXT);
    expect(html).not.toContain('id="nav-menu-panel"');
  });
});
