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

/** How many of `page`'s rows the list shows for the first time: on neither the first page nor `shown` (LoadMore's status). */
export function newRowsOf<T>(shown: Loaded<T> | null, page: KeysetPage<T>, firstIds: readonly string[], idOf: (item: T) => string): number {
  const seen = new Set([...firstIds, ...(shown?.items ?? []).map(idOf)]);
  return page.data.filter((item) => !seen.has(idOf(item))).length;
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
 * loaded rows, the list's end or GAP_PAGES pages; `next`: the cursor after them (null: the end).
 */
export async function readBelowFirst<T>(
  shown: Loaded<T>,
  firstCursor: string,
  load: (cursor: string) => Promise<KeysetPage<T>>,
  idOf: (item: T) => string,
): Promise<{ read: T[]; next: string | null }> {
  const loaded = new Set(shown.items.map(idOf));
  const read: T[] = [];
  let next: string | null = firstCursor;
  for (let pages = 0; next && pages < GAP_PAGES && !read.some((item) => loaded.has(idOf(item))); pages++) {
    const page: KeysetPage<T> = await load(next);
    read.push(...page.data);
    next = nextCursorOf(page);
  }
  return { read, next };
}

/**
 * `shown` after the rows just below the first page were read again (`read`, in the server's
 * order, up to `next`): those rows, then the loaded rows after the last one they hold. A loaded
 * row before that one that they do not hold is gone (a block, an ended conversation) or moved up
 * onto the first page (rows move up, by new activity). When they reached no loaded row, or the
 * list's end, they are all that is shown, and 'Load more' goes on after them.
 */
export function withGapRead<T>(shown: Loaded<T>, read: readonly T[], next: string | null, idOf: (item: T) => string): Loaded<T> {
  const readIds = new Set(read.map(idOf));
  const lastHeld = next === null ? -1 : shown.items.findLastIndex((item) => readIds.has(idOf(item)));
  if (lastHeld === -1 || lastHeld === shown.items.length - 1) return { items: [...read], cursor: next };
  return { items: [...read, ...shown.items.slice(lastHeld + 1)], cursor: shown.cursor };
}
