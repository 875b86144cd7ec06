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
 * The loaded rows read again from just below the first page (after `firstCursor`), when rows
 * among them, under a first page that did not change, may have changed or left the list (the live
 * feed read the list again: a hello answered further down, a partner's acceptance): until the read holds the last loaded row, reaches
 * the list's end, or holds as many rows as were loaded and a page more (the last loaded row gone
 * too). What it read is what is loaded now, and 'Load more' goes on after it. Bounded by what was
 * loaded, as the clicks that loaded it were.
 */
export async function readLoadedAgain<T>(
  shown: Loaded<T>,
  firstCursor: string,
  load: (cursor: string) => Promise<KeysetPage<T>>,
  idOf: (item: T) => string,
): Promise<Loaded<T>> {
  const last = shown.items.at(-1);
  const lastId = last === undefined ? null : idOf(last);
  const read: T[] = [];
  let next: string | null = firstCursor;
  let pageSize = 0;
  while (next && !read.some((item) => idOf(item) === lastId) && read.length < shown.items.length + pageSize) {
    const page: KeysetPage<T> = await load(next);
    pageSize = page.pagination.limit;
    read.push(...page.data);
    next = nextCursorOf(page);
  }
  return { items: read, cursor: next };
}

/**
 * What is loaded once `shown`'s rows were read again (`again`, readLoadedAgain), `latest` being
 * what is loaded now: the pages 'Load more' added while they were read (`latest` goes on past
 * `shown`) stay after them, each row once, and the list goes on after those pages.
 */
export function withLoadedAgain<T>(latest: Loaded<T>, shown: Loaded<T>, again: Loaded<T>, idOf: (item: T) => string): Loaded<T> {
  const since = latest.items.slice(shown.items.length);
  if (since.length === 0) return again;
  return withNextPage(
    again,
    { data: since, pagination: { limit: since.length, hasMore: latest.cursor !== null, nextCursor: latest.cursor } },
    idOf,
  );
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
