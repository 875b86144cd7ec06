import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import type { ThreadValue } from "@/lib/messages/display";
import { SAFETY_PAGE } from "@/lib/safety/rules";

/** Every link rendered, with what it was asked to prefetch. */
const links: { href: string; prefetch: unknown }[] = [];
vi.mock("next/link", () => ({
  default: ({ href, prefetch, children, ...anchor }: { href: string; prefetch?: unknown; children: ReactNode }) => {
    links.push({ href, prefetch });
    return createElement("a", { href, ...anchor }, children);
  },
}));
vi.mock("next/navigation", () => ({ useRouter: () => ({ push: () => {}, refresh: () => {} }), usePathname: () => "/messages/k1" }));

const { Thread } = await import("@/components/messages/Thread");

const couple = (id: string, userId: string, firstName: string) => ({
  id,
  coupleName: `${firstName}'s couple`,
  profileImageUrl: null,
  photoBadge: null,
  partners: [{ userId, firstName, avatarUrl: null }],
});

const initial: ThreadValue = {
  conversation: {
    id: "k1",
    couples: [couple("c-own", "u-own", "Ines"), couple("c-other", "u-other", "Ana")],
    readPositions: [],
    ended: false,
    muted: false,
  },
  messages: [],
  hasMore: false,
};

describe("a conversation's header", () => {
  // The safety page's appeal form brings react-hook-form: fetched ahead, it competed with the
  // conversation itself on a phone (CoupleCard's rule: nothing rendered per request is prefetched).
  it("prefetches none of its links, 'Safety' included", () => {
    links.length = 0;
    renderToString(createElement(Thread, { conversationId: "k1", viewerId: "u-own", initial, initialPlans: [] }));
    expect(links.map((link) => link.href)).toEqual(expect.arrayContaining(["/messages", "/profile/c-other", SAFETY_PAGE]));
    expect(links.filter((link) => link.prefetch !== false)).toEqual([]);
  });
});
