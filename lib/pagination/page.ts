/**
 * One page of a keyset list (the forum's posts and replies, the directory; next, the inbox and a
 * conversation's messages): the rows after a position, never an OFFSET, so rows added meanwhile
 * neither repeat nor shift the next page. Pure and browser-safe: the client reads these types.
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

/** The empty page: nothing to read (or nobody to read it for). */
export const emptyPage = <T>(limit: number): KeysetPage<T> => ({ data: [], pagination: { limit, hasMore: false, nextCursor: null } });
