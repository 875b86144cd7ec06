import type { KeysetPagination } from "@/lib/pagination/page";
import { REPLIES_PAGE_MAX, THREAD_REPLIES_SHOWN } from "./rules";

type ThreadPage<P, R> = { post: P; replies: R[]; pagination: KeysetPagination };

/**
 * A thread with its replies up to THREAD_REPLIES_SHOWN, read page after page by `readPage` (the
 * page's server read and the browser's reload both: one rule for what a thread's page holds). The
 * post is the last page's, the freshest; `pagination.hasMore` says replies were left past the bound.
 */
export async function wholeThread<P, R>(
  readPage: (query: { cursor?: string; limit: number }) => Promise<ThreadPage<P, R>>,
): Promise<ThreadPage<P, R>> {
  let page = await readPage({ limit: REPLIES_PAGE_MAX });
  const replies = [...page.replies];
  while (page.pagination.hasMore && page.pagination.nextCursor && replies.length < THREAD_REPLIES_SHOWN) {
    page = await readPage({ cursor: page.pagination.nextCursor, limit: Math.min(REPLIES_PAGE_MAX, THREAD_REPLIES_SHOWN - replies.length) });
    replies.push(...page.replies);
  }
  return { post: page.post, replies, pagination: page.pagination };
}
