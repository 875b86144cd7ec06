import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import type { UpcomingPlan } from "@/lib/plans/view";

/** Every link rendered, with what it was asked to prefetch. */
const links: { href: string; prefetch: unknown }[] = [];
vi.mock("next/link", () => ({
  default: ({ href, prefetch, children, ...anchor }: { href: string; prefetch?: unknown; children: ReactNode }) => {
    links.push({ href, prefetch });
    return createElement("a", { href, ...anchor }, children);
  },
}));

const { default: SettingsPage } = await import("@/app/(app)/settings/page");
const { UpcomingPlans } = await import("@/components/plans/UpcomingPlans");

const plan: UpcomingPlan = {
  id: "5b0c1f9e-2a6d-4c3e-9f1a-0d2e3c4b5a69",
  conversationId: "c3c96a1f-37d3-4d43-90c6-b482e54762f0",
  title: "Dinner by the river",
  startsAt: "2026-12-12T19:30:00.000Z",
  timeZone: "Europe/Lisbon",
  venue: "Time Out Market",
  confirmed: true,
  place: { name: "Lisbon", city: "Lisbon" },
  answers: [{ answer: "going" }],
};

/**
 * The directory's rule (CoupleCard), on the pages a couple opens most: a page rendered per request
 * has nothing to fetch ahead, and a prefetch per link on the screen is two requests and a parse on a
 * phone's main thread as the page loads.
 */
describe("links to pages rendered per request", () => {
  it("the settings overview prefetches none of its sections", () => {
    links.length = 0;
    renderToString(createElement(SettingsPage));
    const sections = links.filter((link) => link.href.startsWith("/settings/"));
    expect(sections.length).toBeGreaterThanOrEqual(10);
    expect(sections.filter((link) => link.prefetch !== false)).toEqual([]);
  });

  it("'Upcoming' prefetches no conversation", () => {
    links.length = 0;
    renderToString(createElement(UpcomingPlans, { initial: [plan] }));
    expect(links).toEqual([{ href: `/messages/${plan.conversationId}`, prefetch: false }]);
  });
});
