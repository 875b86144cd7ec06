/**
 * Directory rules: distance bands, the interests Venn, and the filters as the page's
 * URL and the API's query string spell them. Pure and browser-safe.
 */
import { COUPLE_TYPE_VALUES, COUPLE_TYPES } from "@/lib/couples/rules";
import { isOneLine } from "@/lib/text-rules";
import { INTEREST_ROWS, INTEREST_VALUES } from "@/lib/interests/catalogue";
import { COUPLE_RADII_KM, coupleBand } from "@/lib/locations/bands";

/** The directory's distance filter, in km: radii the bands are named after too. */
export const DIRECTORY_RADII_KM = COUPLE_RADII_KM;
export type DirectoryRadius = (typeof DIRECTORY_RADII_KM)[number];

export const DISTANCE_OPTIONS: readonly { value: DirectoryRadius | null; label: string }[] = [
  ...DIRECTORY_RADII_KM.map((km) => ({ value: km, label: `Within ${km} km` })),
  { value: null, label: "Any distance" },
];

/** 'Within 10 km' ... 'More than 5,000 km' (lib/locations/bands.ts coupleBand); null without a distance. */
export function directoryBand(distanceKm: number | null): string | null {
  return distanceKm === null ? null : coupleBand(distanceKm);
}

export const DIRECTORY_SORTS = ["newest", "nearest", "common"] as const;
export type DirectorySort = (typeof DIRECTORY_SORTS)[number];
/** Without a place of the viewer's own (nothing to measure from): newest first. */
export const DEFAULT_DIRECTORY_SORT: DirectorySort = "newest";
/** With a place, the directory opens nearest first: couples to meet before couples far away. */
export const defaultSort = (hasLocation: boolean): DirectorySort => (hasLocation ? "nearest" : DEFAULT_DIRECTORY_SORT);
export const SORT_LABELS: Record<DirectorySort, string> = { newest: "Newest", nearest: "Nearest", common: "Most in common" };

export const DIRECTORY_PAGE_DEFAULT = 24;
export const DIRECTORY_PAGE_MAX = 50;
export const DIRECTORY_SEARCH_MAX = 100;
/** The most couples the map shows at once (the first of the list's order: nearest first with a place). */
export const DIRECTORY_MAP_MAX = 500;
/** A search is at most this many words: each is one more condition on the same index. */
export const DIRECTORY_SEARCH_WORDS = 6;

/**
 * The words of a search, each once, at most DIRECTORY_SEARCH_WORDS of them: a couple matches when
 * every word appears in its name, a partner's first name or its shown place ('Perpetua', 'London',
 * 'perpetua lisbon'). The text is already bounded (DIRECTORY_SEARCH_MAX) before it is split.
 */
export function searchWords(q: string | undefined): string[] {
  if (!q) return [];
  return [...new Set(q.toLowerCase().split(" ").filter(Boolean))].slice(0, DIRECTORY_SEARCH_WORDS);
}

/**
 * Whether the search's trigram index (pg_trgm) narrows a word, so that reading its matches reads
 * little else: pg_trgm finds a `%word%` pattern by the trigrams inside it, and a word without three
 * letters or digits in a row ('12', 'a-b') is checked on every row read. Only a-z and 0-9, which
 * every database locale counts as a word's characters; it decides how much a search reads, never
 * what matches.
 */
export const searchNarrowed = (word: string): boolean => /[a-z0-9]{3}/.test(word);

export const DIRECTORY_TEXTS = {
  empty: "No couples match these filters.",
  clear: "Clear filters",
  loadMore: "Load more",
  noLocation: "Set your location to filter and sort by distance.",
  locationRequired: "Set your location to filter or sort by distance.",
  interestUnknown: "Please choose interests from the list",
  styleUnknown: "Please choose adventure styles from the list",
  distanceUnknown: `Distance must be ${DIRECTORY_RADII_KM.slice(0, -1).join(", ")} or ${DIRECTORY_RADII_KM.at(-1)}`,
  sortUnknown: "Sort must be nearest, newest or common",
  verifiedInvalid: "verified must be 1",
  photoVerifiedInvalid: "photoVerified must be 1",
  searchTooLong: `Search must be no more than ${DIRECTORY_SEARCH_MAX} characters`,
  searchControl: "Search cannot contain control characters",
  cursorInvalid: "This page link has expired. Please reload the list.",
} as const;

/**
 * The search text of the page's address as the API's query reads it (lib/directory/schemas.ts
 * `q`: trimmed, in NFC, bounded, on one line), so the page's first list, the filter sheet's count
 * and the cursor 'Load more' sends back all search the same text; text the API would refuse is no
 * search. Without zod: the directory's first paint loads none.
 */
export function searchText(raw: string | undefined): string | undefined {
  if (raw === undefined || raw.length > 2 * DIRECTORY_SEARCH_MAX) return undefined;
  const q = raw.trim().normalize("NFC");
  return q && q.length <= DIRECTORY_SEARCH_MAX && isOneLine(q) ? q : undefined;
}

export const commonText = (count: number) => `${count} ${count === 1 ? "interest" : "interests"} in common`;

/* ---------- The interests Venn ---------- */

export type CoupleVenn = { shared: string[]; onlyYours: string[]; onlyTheirs: string[]; allFour: string[] };
export type PartnersVenn = { shared: string[]; onlyMine: string[]; onlyPartner: string[] };

const unique = (lists: readonly (readonly string[])[]) => [...new Set(lists.flat())];

/**
 * Two couples' interests (each couple's is the union of its partners'): those both couples
 * have, only the viewer's, only the other's, and `allFour`, those every one of the four
 * people holds (empty unless both couples have two partners). Each list in first-seen order.
 */
export function interestsVenn(yours: readonly (readonly string[])[], theirs: readonly (readonly string[])[]): CoupleVenn {
  const mine = unique(yours);
  const other = new Set(unique(theirs));
  const mineSet = new Set(mine);
  const everyone = [...yours, ...theirs];
  return {
    shared: mine.filter((value) => other.has(value)),
    onlyYours: mine.filter((value) => !other.has(value)),
    onlyTheirs: [...other].filter((value) => !mineSet.has(value)),
    allFour: yours.length === 2 && theirs.length === 2 ? mine.filter((value) => everyone.every((list) => list.includes(value))) : [],
  };
}

/** The two partners of one couple (`GET /api/v2/auth/me`); the partner's list is empty before they join. */
export function partnersVenn(mine: readonly string[], partner: readonly string[]): PartnersVenn {
  const me = unique([mine]);
  const them = unique([partner]);
  return {
    shared: me.filter((value) => them.includes(value)),
    onlyMine: me.filter((value) => !them.includes(value)),
    onlyPartner: them.filter((value) => !me.includes(value)),
  };
}

/* ---------- Filters ---------- */

export type DirectoryFilters = {
  q?: string;
  interests: string[];
  styles: string[];
  verified: boolean;
  /** Couples with at least one partner's photo verified by a moderator (lib/verification). */
  photoVerified: boolean;
  distance?: DirectoryRadius;
  sort: DirectorySort;
};

export const NO_FILTERS: DirectoryFilters = {
  interests: [],
  styles: [],
  verified: false,
  photoVerified: false,
  sort: DEFAULT_DIRECTORY_SORT,
};

/** A comma list as the URL spells it: trimmed, empty items dropped, each once. */
export const splitList = (text: string | undefined): string[] => [
  ...new Set(
    (text ?? "")
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean),
  ),
];

/**
 * A page address's search params as filters, leniently: an unknown value (an interest not in
 * the catalogue, a distance not offered) is dropped, never an error page. Without a location
 * of the viewer's own, the distance filter and the nearest sort mean nothing and are dropped; without
 * a sort, the viewer's default (`defaultSort`).
 */
export function pageFilters(params: Record<string, string | string[] | undefined>, viewerHasLocation: boolean): DirectoryFilters {
  const one = (key: string) => {
    const value = params[key];
    return Array.isArray(value) ? value[0] : value;
  };
  // A plain GET form (before any script loads) sends a checkbox list as repeated names.
  const list = (key: string) => {
    const value = params[key];
    return splitList(Array.isArray(value) ? value.join(",") : value);
  };
  const distance = Number(one("distance"));
  const sort = one("sort");
  const filters: DirectoryFilters = {
    interests: list("interests").filter((value) => INTEREST_VALUES.includes(value)),
    styles: list("styles").filter((value) => COUPLE_TYPE_VALUES.includes(value)),
    verified: one("verified") === "1",
    photoVerified: one("photoVerified") === "1",
    sort: (DIRECTORY_SORTS as readonly string[]).includes(sort ?? "") ? (sort as DirectorySort) : defaultSort(viewerHasLocation),
  };
  const q = searchText(one("q"));
  if (q) filters.q = q;
  if (viewerHasLocation && (DIRECTORY_RADII_KM as readonly number[]).includes(distance)) filters.distance = distance as DirectoryRadius;
  if (!viewerHasLocation && filters.sort === "nearest") filters.sort = DEFAULT_DIRECTORY_SORT;
  return filters;
}

/** The filters as the API spells them (no empty values; the sort always, so a page never depends on the viewer's default). */
export function filterParams(filters: DirectoryFilters, cursor?: string): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.q) params.set("q", filters.q);
  if (filters.interests.length) params.set("interests", filters.interests.join(","));
  if (filters.styles.length) params.set("styles", filters.styles.join(","));
  if (filters.verified) params.set("verified", "1");
  if (filters.photoVerified) params.set("photoVerified", "1");
  if (filters.distance) params.set("distance", String(filters.distance));
  params.set("sort", filters.sort);
  if (cursor) params.set("cursor", cursor);
  return params;
}

/** The directory as a list of cards, or on a map (the page's `view=map`). */
export type DirectoryView = "list" | "map";
export const directoryView = (params: Record<string, string | string[] | undefined>): DirectoryView =>
  params.view === "map" ? "map" : "list";

/** The page's address for the filters: the API's names, the viewer's default sort left out, then the view. */
export const directoryHref = (filters: DirectoryFilters, hasLocation: boolean, view: DirectoryView = "list"): string => {
  const params = filterParams(filters);
  if (filters.sort === defaultSort(hasLocation)) params.delete("sort");
  if (view === "map") params.set("view", "map");
  const query = params.toString();
  return query ? `/directory?${query}` : "/directory";
};

/** '12 couples', '1 couple', '1,000+ couples': a count as the filter sheet and the map say it. */
export const countText = ({ count, more }: { count: number; more: boolean }): string =>
  `${count.toLocaleString("en")}${more ? "+" : ""} ${count === 1 && !more ? "couple" : "couples"}`;

/**
 * The map's count: the couples it shows and, when the list goes on past them (DIRECTORY_MAP_MAX),
 * which ones they are: the first in the list's own sort, not always the nearest.
 */
export const mapCountText = (shown: { count: number; more: boolean }, sort: DirectorySort): string =>
  `${countText(shown)}${shown.more ? `, ${SORT_LABELS[sort].toLowerCase()} first` : ""}`;

export type FilterChip = { key: string; label: string; without: DirectoryFilters };

/** The filters in force, each a chip that removes it: the search, distance, verified, photo verified, each style and interest, a sort other than the default. */
export function activeFilters(filters: DirectoryFilters, hasLocation: boolean): FilterChip[] {
  const chips: FilterChip[] = [];
  if (filters.q) chips.push({ key: "q", label: `“${filters.q}”`, without: { ...filters, q: undefined } });
  if (filters.distance)
    chips.push({ key: "distance", label: `Within ${filters.distance} km`, without: { ...filters, distance: undefined } });
  if (filters.verified) chips.push({ key: "verified", label: "Verified couples only", without: { ...filters, verified: false } });
  if (filters.photoVerified) chips.push({ key: "photoVerified", label: "Photo verified", without: { ...filters, photoVerified: false } });
  for (const value of filters.styles)
    chips.push({
      key: `style:${value}`,
      label: COUPLE_TYPES.find((type) => type.value === value)?.label ?? value,
      without: { ...filters, styles: filters.styles.filter((other) => other !== value) },
    });
  for (const value of filters.interests)
    chips.push({
      key: `interest:${value}`,
      label: INTEREST_ROWS.find((row) => row.value === value)?.label ?? value,
      without: { ...filters, interests: filters.interests.filter((other) => other !== value) },
    });
  if (filters.sort !== defaultSort(hasLocation))
    chips.push({ key: "sort", label: `Sorted: ${SORT_LABELS[filters.sort]}`, without: { ...filters, sort: defaultSort(hasLocation) } });
  return chips;
}

export const hasFilters = (filters: DirectoryFilters) =>
  !!filters.q ||
  filters.interests.length > 0 ||
  filters.styles.length > 0 ||
  filters.verified ||
  filters.photoVerified ||
  filters.distance !== undefined;

/**
 * The signed context of a cursor: a page of one filter set cannot continue another's list, nor
 * one couple's list another's (`viewerCoupleId`: a nearest cursor's key is the distance from that
 * couple's own place, and another couple continuing it from places of its choosing would read
 * where that place is). The nearest sort's is `nearest2` since its cursor carries the last
 * couple's distance: a cursor made before, which carried a marker there, no longer verifies (the
 * list says to reload). As JSON, so a search holding ':' or ',' never reads as another filter set
 * ("a:travel" and "a" with travel).
 */
export function cursorContext(filters: DirectoryFilters, viewerCoupleId: string | null): string {
  return `directory:${JSON.stringify([
    viewerCoupleId,
    filters.sort === "nearest" ? "nearest2" : filters.sort,
    filters.q ?? "",
    filters.interests,
    filters.styles,
    filters.verified,
    filters.photoVerified,
    filters.distance ?? null,
  ])}`;
}
