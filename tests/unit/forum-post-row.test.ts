import { createElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import type { ListedPost } from "@/lib/forum/text";
import { reactionCounts } from "@/lib/reactions/rules";

/** Every link a row renders, with what it was asked to prefetch. */
const links: { href: string; prefetch: unknown }[] = [];
vi.mock("next/link", () => ({
  default: ({ href, prefetch, children, ...anchor }: { href: string; prefetch?: unknown; children: ReactNode }) => {
    links.push({ href, prefetch });
    return createElement("a", { href, ...anchor }, children);
  },
}));

const { PostRow } = await import("@/components/forum/PostRow");

const post: ListedPost = {
  id: "0b6c5c1e-6c1b-4a55-9a43-5b0a4c1f2d10",
  title: "Hiking near the lake",
  topic: "travel",
  distanceBand: null,
  author: {
    coupleId: "7d1e0f6a-3b2c-4d5e-8f90-1a2b3c4d5e6f",
    coupleImageUrl: null,
    isVerified: true,
    signature: "Ana of Ana & Kai",
    profileShown: true,
  },
  excerpt: "Who knows a trail?",
  replyCount: 2,
  reactions: reactionCounts([{ kind: "heart", count: 1 }]),
  createdAt: "2026-12-01T10:00:00.000Z",
  lastActivityAt: "2026-12-02T10:00:00.000Z",
};

describe("a forum list's row", () => {
  // The directory's rule (CoupleCard): a thread and a profile are rendered per request, and a
  // prefetch per row on the first screen is a request and a parse on a phone's main thread.
  it("prefetches none of its links: the thread's and the author's", () => {
    links.length = 0;
    const html = renderToStaticMarkup(createElement(PostRow, { post }));
    expect(links.map((link) => link.href)).toEqual([
      `/forum/post/${post.id}`,
      `/profile/${post.author.coupleId}`,
      `/profile/${post.author.coupleId}`,
    ]);
    expect(links.every((link) => link.prefetch === false)).toBe(true);
    expect(html).toContain(`href="/forum/post/${post.id}"`);
  });
});
