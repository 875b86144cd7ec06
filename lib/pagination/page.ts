/**
 * One page of a keyset list (the forum's posts and replies, the directory, the inbox): the rows
 * after a position, never an OFFSET, so rows added meanwhile neither repeat nor shift the next
 * page. Pure and browser-safe: the client reads these types.
 *
 * The one page shape: every list answers `KeysetPage<T>`, built by `keysetPage`, and its 'Load
 * more' is components/ui/useLoadMore.ts. Two lists keep a shape of their own: the notifications
 * page by `{limit, offset, total, hasMore}`, as the spec's API gives it (section 3, Notification;
 * section 7, Notifications), and a conversation's messages read backwards from a message the
 * browser holds (`?before={messageId}`, answering `{data, pagination: {hasMore}}`), which its
 * scroll-up loading and the API's callers use. A new list takes neither.
 */

/** Where a list stands: `nextCursor` (signed, lib/pagination/cursor.ts) asks for the rows after this page. */
export type KeysetPagination = { limit: number; nextCursor: string | null; hasMore: boolean };

/** A page of `T`: what every keyset list answers (`{data, pagination}`). */
export type KeysetPage<T> = { data: T[]; pagination: KeysetPagination };

/** Far longer than any cursor the server makes; longer ones are refused unread. */
export const CURSOR_MAX = 256;

/**
 * A page from the `limit + 1` rows a keyset query read (the extra row only says there is more),
 * with the cursor after its last row when there is more.
 */
export function keysetPage<R, T>(rows: readonly R[], limit: number, item: (row: R) => T, cursorAfter: (last: R) => string): KeysetPage<T> {
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const last = page.at(-1);
  return { data: page.map(item), pagination: { limit, hasMore, nextCursor: hasMore && last !== undefined ? cursorAfter(last) : null } };
}

/** The cursor to ask for the page after `page` with, or null at the end of the list. */
export const nextCursorOf = (page: { pagination: KeysetPagination }): string | null =>
  page.pagination.hasMore ? page.pagination.nextCursor : null;

/** The empty page: nothing to read (or nobody to read it for). */
export const emptyPage = <T>(limit: number): KeysetPage<T> => ({ data: [], pagination: { limit, hasMore: false, nextCursor: null } });
