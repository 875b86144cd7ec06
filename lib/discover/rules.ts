/**
 * Discover's scoring: one pure function ranks candidate couples for a viewer and says
 * why each is suggested. Pure and browser-safe: the server feeds it rows it already filtered
 * (discoverable, not blocked either way, not dismissed, not the viewer's own).
 *
 * Privacy: distances are computed only between the coordinates others may see (snapped to each
 * couple's privacy level, see lib/locations/privacy.ts) and only ever leave as a band ('Within
 * 10 km' ... 'Within 200 km'), never as a number, so moving one's own place cannot trilaterate anyone.
 */
import { COUPLE_TYPES, interestLists } from "@/lib/couples/rules";
import { INTEREST_ROWS } from "@/lib/interests/catalogue";
import { COUPLE_RADII_KM, haversineKm } from "@/lib/locations/bands";

/** 'Not for us' hides a suggestion this long. */
export const DISMISS_DAYS = 30;
export const DISMISS_MS = DISMISS_DAYS * 24 * 60 * 60 * 1000;

/** How many suggestions /discover and GET /api/discover show. */
export const DISCOVER_LIMIT = 24;

/**
 * 'Not for us' per person per hour (lib/rate-limit.ts `Limit` shape): five pages of suggestions
 * hidden one by one; each is a write, and again on the same couple, so a loop is bounded.
 */
export const DISMISSALS_PER_USER = { bucket: "discover-dismiss:user", limit: 120, windowSeconds: 60 * 60 } as const;

/** The couples' bands of lib/locations/bands.ts (the directory and a profile show the same). */
export const DISTANCE_BANDS = COUPLE_RADII_KM;
export type DistanceBand = (typeof DISTANCE_BANDS)[number];

export const WEIGHTS = {
  /** Per interest every one of the four people holds. */
  allFour: 3,
  /** Per interest the two couples share (each couple: the union of its partners'), beyond the all-four ones. */
  couples: 1,
  /** Per adventure style both couples chose. */
  style: 2,
  /** By distance band. */
  band: { 10: 4, 25: 3, 50: 3, 100: 1, 200: 1 } satisfies Record<DistanceBand, number>,
} as const;

export type Point = { lat: number; lng: number };

export type ScoringCouple = {
  id: string;
  /** Each joined partner's own interests (one list per partner). */
  partners: readonly (readonly string[])[];
  /** The couple's stored list: stands in when its partners chose none. */
  coupleInterests: readonly string[];
  /** Adventure styles (couple types). */
  styles: readonly string[];
  /** The coordinates others may see (already snapped), null when hidden, country-level or unknown. */
  point: Point | null;
};

export type Suggestion = {
  id: string;
  score: number;
  /** Interests all four people hold, catalogue order. */
  allFour: string[];
  /** Interests the two couples share as couples (all-four ones included), catalogue order. */
  sharedInterests: string[];
  sharedStyles: string[];
  distanceBand: DistanceBand | null;
  reasons: string[];
};

const INTEREST_ORDER = new Map(INTEREST_ROWS.map((row, index) => [row.value, index]));
const INTEREST_LABEL = new Map(INTEREST_ROWS.map((row) => [row.value, row.label]));
const STYLE_ORDER = new Map(COUPLE_TYPES.map((type, index) => [type.value as string, index]));
const STYLE_LABEL = new Map(COUPLE_TYPES.map((type) => [type.value as string, type.label as string]));

const byOrder = (order: Map<string, number>) => (a: string, b: string) =>
  (order.get(a) ?? Infinity) - (order.get(b) ?? Infinity) || a.localeCompare(b);

/** A couple's interests as a couple: the union of its partners', else its own stored list. */
export function coupleInterestSet(couple: Pick<ScoringCouple, "partners" | "coupleInterests">): Set<string> {
  return new Set(interestLists(couple.partners, couple.coupleInterests).flat());
}

/** Interests every one of the four people holds: empty when either couple has one partner. */
export function allFourInterests(a: Pick<ScoringCouple, "partners">, b: Pick<ScoringCouple, "partners">): Set<string> {
  const people = [...a.partners, ...b.partners];
  if (a.partners.length !== 2 || b.partners.length !== 2) return new Set();
  const [first, ...rest] = people.map((list) => new Set(list));
  return new Set([...first!].filter((value) => rest.every((set) => set.has(value))));
}

/** Great-circle distance in km: the one haversine of lib/locations/bands.ts. */
export const distanceKm = (p: Point, q: Point): number => haversineKm(p, q);

/** The smallest band a distance falls in; null beyond the last one. */
export function distanceBand(km: number): DistanceBand | null {
  return DISTANCE_BANDS.find((band) => km <= band) ?? null;
}

export const bandLabel = (band: DistanceBand) => `Within ${band} km`;

const interestWords = (values: readonly string[]) =>
  values.map((value) => (INTEREST_LABEL.get(value) ?? value.replaceAll("_", " ")).toLowerCase());
const styleWords = (values: readonly string[]) => values.map((value) => STYLE_LABEL.get(value) ?? value);

/** How many interests a reason names; beyond them it counts ('... and 2 more'), so it stays one chip. */
export const INTERESTS_NAMED = 3;

/** Words as a sentence names them: 'hiking', 'hiking and wine', 'hiking, wine and travel', 'hiking, wine, travel and 2 more'. */
export function namedList(words: readonly string[], named = INTERESTS_NAMED): string {
  if (words.length > named) return `${words.slice(0, named).join(", ")} and ${words.length - named} more`;
  if (words.length <= 1) return words[0] ?? "";
  return `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/**
 * The one interests reason, naming what is shared (catalogue order): 'You all love hiking, wine
 * tasting and travel' when every one of the four holds them, else 'Both couples like ...' for the
 * interests the two couples share as couples; null when they share none.
 */
export function interestsReason(s: Pick<Suggestion, "allFour" | "sharedInterests">): string | null {
  if (s.allFour.length > 0) return `You all love ${namedList(interestWords(s.allFour))}`;
  if (s.sharedInterests.length > 0) return `Both couples like ${namedList(interestWords(s.sharedInterests))}`;
  return null;
}

/**
 * Why a couple is suggested, strongest first, each short enough for a chip: 'You all love hiking,
 * wine tasting and travel', 'Both Culture Curators', 'Within 25 km'.
 */
export function reasonsFor(s: Pick<Suggestion, "allFour" | "sharedInterests" | "sharedStyles" | "distanceBand">): string[] {
  const interests = interestsReason(s);
  const reasons = interests === null ? [] : [interests];
  for (const style of styleWords(s.sharedStyles)) reasons.push(`Both ${style}`);
  if (s.distanceBand !== null) reasons.push(bandLabel(s.distanceBand));
  return reasons;
}

const byInterestOrder = byOrder(INTEREST_ORDER);
const byStyleOrder = byOrder(STYLE_ORDER);

/**
 * Scores candidates for one viewer, without their reasons: what is read of the viewer is made once,
 * not once for each of the candidates (a stored list and the couples changed since, up to ~130).
 */
function scorerFor(viewer: ScoringCouple): (candidate: ScoringCouple) => Omit<Suggestion, "reasons"> {
  const mine = coupleInterestSet(viewer);
  const myStyles = new Set(viewer.styles);
  return (candidate) => {
    const sharedInterests = [...coupleInterestSet(candidate)].filter((value) => mine.has(value)).sort(byInterestOrder);
    const allFour = [...allFourInterests(viewer, candidate)].sort(byInterestOrder);
    const sharedStyles = [...new Set(candidate.styles)].filter((value) => myStyles.has(value)).sort(byStyleOrder);
    const band = viewer.point && candidate.point ? distanceBand(distanceKm(viewer.point, candidate.point)) : null;
    const score =
      allFour.length * WEIGHTS.allFour +
      (sharedInterests.length - allFour.length) * WEIGHTS.couples +
      sharedStyles.length * WEIGHTS.style +
      (band === null ? 0 : WEIGHTS.band[band]);
    return { id: candidate.id, score, allFour, sharedInterests, sharedStyles, distanceBand: band };
  };
}

const withReasons = (suggestion: Omit<Suggestion, "reasons">): Suggestion => ({ ...suggestion, reasons: reasonsFor(suggestion) });

/** One candidate's score and reasons for the viewer. */
export function scoreCouple(viewer: ScoringCouple, candidate: ScoringCouple): Suggestion {
  return withReasons(scorerFor(viewer)(candidate));
}

/**
 * The candidates ranked for the viewer, best first (ties: nearer band, then id, so the order is
 * stable), at most `limit`. A couple with nothing to say about it (score 0) is not suggested,
 * and neither is the viewer's own couple should it slip in. Reasons are written for those kept
 * only; ids compare by their characters, as Postgres orders uuids (a locale's collation is
 * slower and, for lowercase hex, the same order).
 */
export function rankSuggestions(viewer: ScoringCouple, candidates: readonly ScoringCouple[], limit = DISCOVER_LIMIT): Suggestion[] {
  const bandRank = (band: DistanceBand | null) => band ?? Infinity;
  const score = scorerFor(viewer);
  return candidates
    .filter((candidate) => candidate.id !== viewer.id)
    .map(score)
    .filter((suggestion) => suggestion.score > 0)
    .sort((a, b) => b.score - a.score || bandRank(a.distanceBand) - bandRank(b.distanceBand) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, limit)
    .map(withReasons);
}
