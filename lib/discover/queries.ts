import "server-only";
import { and, arrayOverlaps, asc, eq, inArray, isNotNull, ne, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { couples, discoverDismissals, locations, users } from "@/db/schema";
import { coupleNotFound, isCoupleId } from "@/lib/couples/queries";
import { COUPLE_TYPES, coupleBadge, shownCoupleLocation, type CoupleBadge } from "@/lib/couples/rules";
import { partnerOf } from "@/lib/couples/partner";
import { AppError } from "@/lib/errors";
import { discoverableTo } from "@/lib/locations/access";
import { locationColumns } from "@/lib/locations/place";
import { shownCoordinates, type StoredLocation } from "@/lib/locations/privacy";
import { bandLabel, DISCOVER_LIMIT, DISMISS_MS, rankSuggestions, type ScoringCouple } from "./rules";

/**
 * How many couples each SQL pre-filter hands to the scorer: the couples sharing an interest (a
 * partner's or the couple's own: couples.match_interests) or an adventure style (a primary-key walk that stops once it has this many), and the nearest
 * couples (a walk of the locations_point_gist_idx index, nearest first). Bounded, so the
 * scoring cost is the same at 1,000 couples and at 100,000.
 */
export const CANDIDATES_BY_INTEREST = 150;
export const CANDIDATES_NEARBY = 100;

export type DiscoverSuggestion = {
  coupleId: string;
  coupleName: string;
  profileImageUrl: string | null;
  badge: CoupleBadge;
  /** At the couple's privacy level; null when hidden. */
  location: string | null;
  coupleTypes: { value: string; label: string }[];
  /** 'Within 10 km' etc., from the snapped coordinates; null when either place is hidden, country-level or far. */
  distance: string | null;
  score: number;
  reasons: string[];
};

const partnerA = alias(users, "partner_a");
const partnerB = alias(users, "partner_b");
const STYLE_LABEL = new Map(COUPLE_TYPES.map((type) => [type.value as string, type.label as string]));

/** The columns scoring needs of a couple; partners contribute their interests only. */
const scoringColumns = {
  id: couples.id,
  coupleName: couples.coupleName,
  profileImageUrl: couples.profileImageUrl,
  coupleTypes: couples.coupleTypes,
  interests: couples.interests,
  status: couples.status,
  partnerAVerified: couples.partnerAVerified,
  partnerBVerified: couples.partnerBVerified,
  aInterests: partnerA.interests,
  bId: partnerB.id,
  bInterests: partnerB.interests,
  place: locationColumns,
};

type ScoringRow = {
  id: string;
  coupleTypes: string[];
  interests: string[];
  aInterests: string[] | null;
  bId: string | null;
  bInterests: string[] | null;
  place: StoredLocation | null;
};

function scoringCouple(row: ScoringRow): ScoringCouple {
  const place = row.place?.id ? row.place : null;
  return {
    id: row.id,
    partners: row.bId ? [row.aInterests ?? [], row.bInterests ?? []] : [row.aInterests ?? []],
    coupleInterests: row.interests,
    styles: row.coupleTypes,
    // Only what others may see: snapped to the level, none when hidden or country-level.
    point: place ? shownCoordinates(place.privacyLevel, place.latitude, place.longitude) : null,
  };
}

const selectScoring = (db: Db) =>
  db
    .select(scoringColumns)
    .from(couples)
    .leftJoin(partnerA, eq(partnerA.id, couples.partner1Id))
    .leftJoin(partnerB, eq(partnerB.id, couples.partner2Id))
    .leftJoin(locations, and(eq(locations.entityType, "couple"), eq(locations.entityId, couples.id)));

/** The viewer's couple as scoring sees it; NOT_FOUND when they have none. */
async function viewerCouple(db: Db, userId: string) {
  const [row] = await selectScoring(db).where(partnerOf(userId)).limit(1);
  if (!row) throw new AppError("NOT_FOUND", "Create your couple profile first.");
  return row;
}

/** SQL: the viewer's couple has not said 'Not for us' to `couples` within the last 30 days. */
const notDismissedBy = (viewerCoupleId: string): SQL =>
  sql`not exists (select 1 from ${discoverDismissals} where ${discoverDismissals.coupleId} = ${viewerCoupleId} and ${discoverDismissals.dismissedCoupleId} = ${couples.id} and ${discoverDismissals.hiddenUntil} > now())`;

/**
 * Suggested couples for the user, best first, each with why. Candidates are pre-filtered in SQL
 * (discoverable to the viewer, so active, visible and not blocked either way; not their own;
 * not dismissed; sharing an interest or a style, or among the nearest), then scored by the pure
 * `rankSuggestions`. Nothing private leaves: no partner names, no coordinates, no distance figure.
 */
export async function discoverSuggestions(db: Db, userId: string, limit = DISCOVER_LIMIT): Promise<DiscoverSuggestion[]> {
  const { viewer, byInterest, byPlace } = await candidateQueries(db, userId, limit);
  // Both pre-filters return the scoring columns themselves: one round after the viewer's row.
  const [interestRows, placeRows] = await Promise.all([byInterest ?? [], byPlace ?? []]);
  const byId = new Map([...interestRows, ...placeRows].map((row) => [row.id, row]));
  if (byId.size === 0) return [];
  const rows = [...byId.values()];
  return rankSuggestions(viewer, rows.map(scoringCouple), limit).map((suggestion) => {
    const row = byId.get(suggestion.id)!;
    const place = row.place?.id ? row.place : null;
    return {
      coupleId: row.id,
      coupleName: row.coupleName,
      profileImageUrl: row.profileImageUrl,
      badge: coupleBadge(row),
      location: shownCoupleLocation(place, "other", null),
      coupleTypes: row.coupleTypes.map((value) => ({ value, label: STYLE_LABEL.get(value) ?? value })),
      distance: suggestion.distanceBand === null ? null : bandLabel(suggestion.distanceBand),
      score: suggestion.score,
      reasons: suggestion.reasons,
    };
  });
}

/**
 * The viewer and the two bounded candidate queries, not yet run (the bench EXPLAINs them): the
 * couples sharing an interest or a style, and the couples within 200 km; null when the viewer
 * has nothing to match on.
 */
export async function candidateQueries(db: Db, userId: string, limit = DISCOVER_LIMIT) {
  // A short list (the dashboard's 3) is ranked from a smaller pool: 15 candidates per place, at least 40.
  const pool = (most: number) => Math.min(most, Math.max(40, limit * 15));
  const viewerRow = await viewerCouple(db, userId);
  const viewer = scoringCouple(viewerRow);
  const viewerInterests = [...new Set([...viewer.partners.flat(), ...viewer.coupleInterests])];
  const eligible = and(discoverableTo(userId), ne(couples.id, viewer.id), notDismissedBy(viewer.id));

  const overlaps = [
    viewerInterests.length > 0 ? arrayOverlaps(couples.matchInterests, viewerInterests) : undefined,
    viewer.styles.length > 0 ? arrayOverlaps(couples.coupleTypes, [...viewer.styles]) : undefined,
  ].filter((condition) => condition !== undefined);
  const byInterest =
    overlaps.length > 0
      ? selectScoring(db)
          .where(and(eligible, or(...overlaps)))
          .orderBy(asc(couples.id))
          .limit(pool(CANDIDATES_BY_INTEREST))
      : null;

  const point = viewer.point;
  // The nearest couples first, whatever the distance: a walk of locations_point_gist_idx that
  // stops at its limit (the scorer gives a band only within 200 km). Measured from the viewer's
  // shown point; the candidates' bands come from their shown points too.
  const byPlace = point
    ? selectScoring(db)
        .where(and(eq(locations.entityType, "couple"), inArray(locations.privacyLevel, ["full", "city", "region"]), isNotNull(locations.latitude), eligible))
        .orderBy(sql`point(${locations.longitude}, ${locations.latitude}) <-> point(${point.lng}::double precision, ${point.lat}::double precision)`)
        .limit(pool(CANDIDATES_NEARBY))
    : null;
  return { viewer, byInterest, byPlace };
}

/**
 * 'Not for us': hides the couple from the viewer's couple's suggestions for 30 days (again: the
 * 30 days start over). A couple the viewer may not see (hidden, blocked, unknown, malformed id)
 * is NOT_FOUND alike, so ids cannot be probed; their own couple is a VALIDATION_ERROR.
 */
export async function dismissSuggestion(db: Db, userId: string, coupleId: string, now = new Date()): Promise<{ coupleId: string; hiddenUntil: string }> {
  if (!isCoupleId(coupleId)) throw coupleNotFound();
  const [own] = await db.select({ id: couples.id }).from(couples).where(partnerOf(userId)).limit(1);
  if (!own) throw new AppError("NOT_FOUND", "Create your couple profile first.");
  if (own.id === coupleId) throw new AppError("VALIDATION_ERROR", "You cannot hide your own couple.");
  const [target] = await db
    .select({ id: couples.id })
    .from(couples)
    .where(and(eq(couples.id, coupleId), discoverableTo(userId)))
    .limit(1);
  if (!target) throw coupleNotFound();
  const hiddenUntil = new Date(now.getTime() + DISMISS_MS);
  await db
    .insert(discoverDismissals)
    .values({ coupleId: own.id, dismissedCoupleId: coupleId, hiddenUntil })
    .onConflictDoUpdate({ target: [discoverDismissals.coupleId, discoverDismissals.dismissedCoupleId], set: { hiddenUntil } });
  return { coupleId, hiddenUntil: hiddenUntil.toISOString() };
}

