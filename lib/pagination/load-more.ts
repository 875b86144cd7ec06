import { nextCursorOf, type KeysetPage } from "./page";

/**
 * What 'Load more' shows below a keyset list's first page (components/ui/useLoadMore.ts), kept
 * pure so its rules are tested apart from React. Pure and browser-safe.
 */

/** The rows loaded below the first page, and the cursor of the page after them (null: the end). */
export type Loaded<T> = { items: T[]; cursor: string | null };

/** Pages read at most to close a gap under a changed first page (each a click's worth of rows). */
export const GAP_PAGES = 3;

/** `shown` with the next page added: a row already shown keeps its first place. */
export function withNextPage<T>(shown: Loaded<T> | null, page: KeysetPage<T>, idOf: (item: T) => string): Loaded<T> {
  const items = shown?.items ?? [];
  const seen = new Set(items.map(idOf));
  return { items: [...items, ...page.data.filter((item) => !seen.has(idOf(item)))], cursor: nextCursorOf(page) };
}

/**
 * Whether a changed first page may have left a gap above the loaded rows: a row it showed before
 * is no longer on it (pushed down by a row that moved up, or gone from the list: only the server
 * knows which, so the rows below the first page are read again).
 */
export const leftTheFirstPage = (before: readonly string[], now: readonly string[]): boolean => {
  const onFirst = new Set(now);
  return before.some((id) => !onFirst.has(id));
};

/**
 * The rows just below a changed first page, read again (after `firstCursor`) until they reach the
 * loaded rows, the list's end (`end`) or GAP_PAGES pages.
 */
export async function readBelowFirst<T>(
  shown: Loaded<T>,
  firstCursor: string,
  load: (cursor: string) => Promise<KeysetPage<T>>,
  idOf: (item: T) => string,
): Promise<{ read: T[]; end: boolean }> {
  const loaded = new Set(shown.items.map(idOf));
  const read: T[] = [];
  let next: string | null = firstCursor;
  for (let pages = 0; next && pages < GAP_PAGES && !read.some((item) => loaded.has(idOf(item))); pages++) {
    const page: KeysetPage<T> = await load(next);
    read.push(...page.data);
    next = nextCursorOf(page);
  }
  return { read, end: next === null };
}

/**
 * `shown` after the rows just below the first page were read again (`read`, in the server's
 * order; `end`: the list ended within them): those rows, then the loaded rows they do not hold,
 * in their place. When the list ended within them, they are all there is: a loaded row they do
 * not hold is gone (a block, a deleted account) and is dropped.
 */
export function withGapRead<T>(shown: Loaded<T>, read: readonly T[], end: boolean, idOf: (item: T) => string): Loaded<T> {
  if (end) return { items: [...read], cursor: null };
  const readIds = new Set(read.map(idOf));
  return { items: [...read, ...shown.items.filter((item) => !readIds.has(idOf(item)))], cursor: shown.cursor };
}
