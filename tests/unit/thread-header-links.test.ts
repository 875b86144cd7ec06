import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import type { ThreadValue } from "@/lib/messages/display";
import { SAFETY_PAGE } from "@/lib/safety/rules";
import { ApiError } from "@/lib/transport/client";

/** Every link rendered, with what it was asked to prefetch. */
const links: { href: string; prefetch: unknown }[] = [];
vi.mock("next/link", () => ({
  default: ({ href, prefetch, children, ...anchor }: { href: string; prefetch?: unknown; children: ReactNode }) => {
    links.push({ href, prefetch });
    return createElement("a", { href, ...anchor }, children);
  },
}));
/** The conversation's feed as read in the browser: set, the thread shows its load-error state. */
const feed = vi.hoisted(() => ({ failure: null as unknown }));
vi.mock("@/lib/live/client/use-live", async (importOriginal) => {
  const live = await importOriginal<typeof import("@/lib/live/client/use-live")>();
  return {
    ...live,
    useLive: (...args: Parameters<typeof live.useLive>) => {
      const state = live.useLive(...args);
      return feed.failure ? { status: "error", error: feed.failure } : state;
    },
  };
});
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

  // The inbox is rendered per request: its link in the error state is not fetched ahead either.
  it("does not prefetch 'Back to messages' when the conversation could not be loaded", () => {
    links.length = 0;
    feed.failure = new ApiError(404, "NOT_FOUND", "Conversation not found");
    try {
      const html = renderToString(createElement(Thread, { conversationId: "k1", viewerId: "u-own", initial, initialPlans: [] }));
      expect(html).toContain("Conversation not found");
    } finally {
      feed.failure = null;
    }
    expect(links).toEqual([{ href: "/messages", prefetch: false }]);
  });
});
