import { describe, expect, it } from "vitest";
import { REPLIES_PAGE_MAX, THREAD_REPLIES_SHOWN } from "@/lib/forum/rules";
import { wholeThread } from "@/lib/forum/whole-thread";

/** A thread of `count` replies served as the API serves it: pages after a cursor, the post read with each page. */
function serving(count: number) {
  const asked: { cursor?: string; limit: number }[] = [];
  const readPage = async (query: { cursor?: string; limit: number }) => {
    asked.push(query);
    const from = query.cursor ? Number(query.cursor) : 0;
    const replies = Array.from({ length: Math.max(0, Math.min(query.limit, count - from)) }, (_, i) => `reply ${from + i + 1}`);
    const last = from + replies.length;
    return {
      post: { readAt: asked.length },
      replies,
      pagination: { limit: query.limit, hasMore: last < count, nextCursor: replies.length ? String(last) : (query.cursor ?? null) },
    };
  };
  return { asked, readPage };
}

describe("a thread's page holds its replies page after page (wholeThread)", () => {
  it("reads one page for a short thread", async () => {
    const { asked, readPage } = serving(3);
    const thread = await wholeThread(readPage);
    expect(thread.replies).toEqual(["reply 1", "reply 2", "reply 3"]);
    expect(thread.pagination.hasMore).toBe(false);
    expect(asked).toEqual([{ limit: REPLIES_PAGE_MAX }]);
  });

  it("follows the cursor past the first page, so the newest reply of a long thread is there, each once, oldest first", async () => {
    const { asked, readPage } = serving(REPLIES_PAGE_MAX * 2 + 1);
    const thread = await wholeThread(readPage);
    expect(thread.replies).toHaveLength(REPLIES_PAGE_MAX * 2 + 1);
    expect(new Set(thread.replies).size).toBe(thread.replies.length);
    expect(thread.replies.at(-1)).toBe(`reply ${REPLIES_PAGE_MAX * 2 + 1}`);
    expect(asked.map((query) => query.cursor)).toEqual([undefined, String(REPLIES_PAGE_MAX), String(REPLIES_PAGE_MAX * 2)]);
    // The post as the last page read it: the freshest.
    expect(thread.post).toEqual({ readAt: 3 });
    expect(thread.pagination.hasMore).toBe(false);
  });

  it("stops at THREAD_REPLIES_SHOWN and says there are more", async () => {
    const { asked, readPage } = serving(THREAD_REPLIES_SHOWN * 3);
    const thread = await wholeThread(readPage);
    expect(thread.replies).toHaveLength(THREAD_REPLIES_SHOWN);
    expect(thread.replies.at(-1)).toBe(`reply ${THREAD_REPLIES_SHOWN}`);
    expect(thread.pagination.hasMore).toBe(true);
    expect(asked).toHaveLength(Math.ceil(THREAD_REPLIES_SHOWN / REPLIES_PAGE_MAX));
  });
});
