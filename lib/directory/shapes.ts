/**
 * The shapes of the directory's statements: which SQL a page's read sends, whatever its values
 * (db/prepared.ts runAsShape). Every value (the viewer, the centre, its interests, the cursor, a
 * kept ranking's ids) is a parameter; what changes the text is which filters are on, the sort's
 * statement, whether a cursor continues it, and the page size, a literal: with a parameter for its
 * LIMIT the server plans for a tenth of the rows and keeps no generic plan. Pure.
 */
import { DIRECTORY_MAP_MAX, DIRECTORY_PAGE_DEFAULT } from "./rules";

/** The statements a page runs (lib/directory/queries.ts readDirectory), by sort. */
export const DIRECTORY_STATEMENTS = [
  "newest",
  /** Nearest: the couples with a shown point, walked nearest first. */
  "nearest-measured",
  /** Nearest: then those without one, by id. */
  "nearest-unmeasured",
  /** Most in common: ranked among the viewer's kept ranking. */
  "common-kept",
  /** Most in common: ranked among every couple sharing an interest. */
  "common-ranked",
  /** Most in common: then those sharing none, by id. */
  "common-none",
  /** The filter sheet's count (countDirectory), of its own size. */
  "count",
] as const;
export type DirectoryStatement = (typeof DIRECTORY_STATEMENTS)[number];

/**
 * The page sizes the app itself asks for (the list's pages, the map): only those are named, so an
 * API caller's own sizes (1 to 50) add no statements.
 */
export const NAMED_PAGE_SIZES: readonly number[] = [DIRECTORY_PAGE_DEFAULT, DIRECTORY_MAP_MAX];

export type DirectoryShapeInput = {
  statement: DirectoryStatement;
  /** Whether the viewer has a couple (who it may not see: its own, blocks) and a centre (distances are selected). */
  viewerCouple: boolean;
  centre: boolean;
  /**
   * A search, an interest filter and a style filter are planned afresh: whether to walk the sort's
   * index or read the filter's matches first depends on how common the words or values are, and a
   * generic plan made from rare ones would read every match of a common one (45 ms against 0.4 ms
   * at 20,000 couples for a common interest).
   */
  search: boolean;
  interests: boolean;
  styles: boolean;
  verified: boolean;
  photoVerified: boolean;
  distance: boolean;
  /** Whether the statement continues a cursor (its keyset condition). */
  after: boolean;
  /** Whether the viewer's couple has interests ('most in common' ranks none without). */
  viewerInterests: boolean;
  /** The page's size; null for a statement of its own size (the count). */
  limit: number | null;
};

/**
 * The statement's name: one per distinct SQL text, or null for one planned afresh (a search, an
 * interest or style filter, a page size the app does not ask for). Only what changes the
 * statement's text is in it.
 */
export function directoryShape(input: DirectoryShapeInput): string | null {
  if (input.search || input.interests || input.styles) return null;
  if (input.limit !== null && !NAMED_PAGE_SIZES.includes(input.limit)) return null;
  const common = input.statement.startsWith("common");
  const on = (flag: boolean, name: string) => (flag ? [name] : []);
  return [
    "directory",
    input.statement,
    ...on(input.limit !== null, String(input.limit)),
    ...on(input.viewerCouple, "couple"),
    ...on(input.centre, "centre"),
    ...on(input.verified, "verified"),
    ...on(input.photoVerified, "photo"),
    ...on(input.distance, "distance"),
    ...on(input.after, "after"),
    ...on(common && input.viewerInterests, "mine"),
  ].join(":");
}
