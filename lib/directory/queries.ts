import "server-only";
import { and, asc, between, desc, eq, inArray, isNotNull, ne, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { couples, locations, users } from "@/db/schema";
import { authSecret } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { COUPLE_TYPES, coupleBadge, shownCoupleLocation, type CoupleBadge } from "@/lib/couples/rules";
import { viewerCouple, type ViewerCouple } from "@/lib/couples/queries";
import { decodeCursor, encodeCursor, type Cursor } from "@/lib/forum/cursor";
import { notBlockedEitherWay } from "@/lib/locations/access";
import { EARTH_RADIUS_KM, KM_PER_DEGREE, longitudeFilter, shown, SNAP_MARGIN_DEGREES } from "@/lib/locations/nearby";
import { locationColumns } from "@/lib/locations/place";
import { shownCoordinates } from "@/lib/locations/privacy";
import { cursorContext, directoryBand, DIRECTORY_TEXTS, type DirectoryFilters } from "./rules";
import type { DirectoryQuery } from "./schemas";

export type DirectoryCard = {
  id: string;
  coupleName: string;
  profileImageUrl: string | null;
  badge: CoupleBadge;
  /** At the couple's privacy level; null when hidden. */
  location: string | null;
  /** Between the shown points; null when either place is hidden, country-level or unknown. */
  distanceBand: string | null;
  coupleTypes: { value: string; label: string }[];
  interestsInCommon: number;
};

export type KeysetPagination = { limit: number; nextCursor: string | null; hasMore: boolean };
export type DirectoryPage = { data: DirectoryCard[]; pagination: KeysetPagination };

const partnerA = alias(users, "dir_partner_a");
const partnerB = alias(users, "dir_partner_b");

/** Couples without a shown point sort after every real distance under "nearest". */
const NO_DISTANCE = 1e9;

const styleLabels = new Map<string, string>(COUPLE_TYPES.map((type) => [type.value, type.label]));

/**
 * A couple's interests as SQL: the union of both partners' lists (as the profile shows them),
 * or the couple's own stored list when both are empty.
 */
const partnersInterests = sql`(coalesce(${partnerA.interests}, '{}'::text[]) || coalesce(${partnerB.interests}, '{}'::text[]))`;
const coupleInterestsSql = sql`(case when cardinality(${partnersInterests}) = 0 then ${couples.interests} else ${partnersInterests} end)`;

/**
 * The couple's interests (as `coupleInterestsSql`) overlap `values`, spelled per column so the
 * planner can use each array column's statistics (a CASE over them gets a blind guess, and the
 * plan a needless parallel scan).
 */
function hasAnyInterest(values: string[]): SQL {
  const wanted = sql`${sql.param(values)}::text[]`;
  return sql`(${partnerA.interests} && ${wanted} or ${partnerB.interests} && ${wanted}
    or (cardinality(${partnersInterests}) = 0 and ${couples.interests} && ${wanted}))`;
}

export const cursorError = () => new AppError("VALIDATION_ERROR", DIRECTORY_TEXTS.cursorInvalid, { fieldErrors: { cursor: DIRECTORY_TEXTS.cursorInvalid } });
const locationRequired = () => new AppError("LOCATION_REQUIRED", DIRECTORY_TEXTS.locationRequired);

/** The viewer's shown point (their own privacy level applied): the centre distances are measured from. */
export function viewerCentre(viewer: ViewerCouple | null): { lat: number; lng: number } | null {
  const place = viewer?.place;
  return place ? shownCoordinates(place.privacyLevel, place.latitude, place.longitude) : null;
}

/** Haversine between the centre and a couple's shown (snapped) point; null for hidden or country-level places. */
function distanceFrom(centre: { lat: number; lng: number }): SQL<number | null> {
  const lat = sql`${centre.lat}::double precision`;
  const lng = sql`${centre.lng}::double precision`;
  const shownLat = shown(locations.latitude);
  const shownLng = shown(locations.longitude);
  // least() skips nulls, so a place without a shown point must be null before it, not after.
  return sql<number | null>`(case when ${shownLat} is null or ${shownLng} is null then null else 2 * ${sql.raw(String(EARTH_RADIUS_KM))} * asin(least(1, sqrt(
    power(sin(radians(${shownLat} - ${lat}) / 2), 2)
    + cos(radians(${lat})) * cos(radians(${shownLat})) * power(sin(radians(${shownLng} - ${lng}) / 2), 2)))) end)`;
}

/** The sort key `key` (a distance from the viewer's centre) of one couple's place; NO_DISTANCE when it has none. */
async function distanceOf(db: Db, key: SQL, coupleId: string): Promise<number> {
  const [row] = await db
    .select({ key: sql<number>`${key}`.mapWith(Number) })
    .from(couples)
    .leftJoin(locations, and(eq(locations.entityType, "couple"), eq(locations.entityId, couples.id)))
    .where(eq(couples.id, coupleId));
  return row?.key ?? NO_DISTANCE;
}

/**
 * A page of the directory (issue 12, `GET /api/directory`): discoverable couples (active and
 * visible), never the viewer's own nor one blocked either way, filtered by name, interests (any
 * of), adventure styles (any of), verified badge and distance band, sorted newest, nearest or
 * most in common. Keyset pagination on (sort key, id) with a signed cursor: no OFFSET, no
 * repeats, no gaps. Distances are measured between shown points and leave only as bands.
 */
export async function listDirectory(db: Db, viewerUserId: string, query: DirectoryQuery, known?: { viewer: ViewerCouple | null }): Promise<DirectoryPage> {
  const viewer = known ? known.viewer : await viewerCouple(db, viewerUserId);
  const centre = viewerCentre(viewer);
  if (!centre && (query.distance !== undefined || query.sort === "nearest")) throw locationRequired();
  const filters: DirectoryFilters = { q: query.q, interests: query.interests, styles: query.styles, verified: query.verified, distance: query.distance, sort: query.sort };
  const context = cursorContext(filters);
  let after: Cursor | null = null;
  if (query.cursor !== undefined) {
    after = decodeCursor(authSecret(), context, query.cursor);
    if (!after) throw cursorError();
  }

  const mine = [...new Set(viewer?.interests.flat() ?? [])];
  const distance = centre ? distanceFrom(centre) : null;
  const common = sql<number>`(select count(distinct x) from unnest(${coupleInterestsSql}) as x where x = any(${sql.param(mine)}::text[]))::int`;
  const createdMicros = sql<string>`(extract(epoch from ${couples.createdAt}) * 1000000)::bigint`;

  let order: SQL[];
  let keyset: SQL | undefined;
  if (query.sort === "nearest") {
    const key = sql`coalesce(${distance}, ${sql.raw(String(NO_DISTANCE))})`;
    order = [asc(key), asc(couples.id)];
    // The cursor names the last couple only: its distance is measured again here, never carried
    // by the client (a cursor's payload is signed, not sealed, and distances leave only as bands).
    if (after) keyset = sql`(${key}, ${couples.id}) > (${await distanceOf(db, key, after.id)}::double precision, ${after.id}::uuid)`;
  } else if (query.sort === "common") {
    order = [desc(common), desc(couples.id)];
    if (after) keyset = sql`(${common}, ${couples.id}) < (${after.sortKey as number}::int, ${after.id}::uuid)`;
  } else {
    order = [desc(couples.createdAt), desc(couples.id)];
    if (after) keyset = sql`(${couples.createdAt}, ${couples.id}) < ('epoch'::timestamptz + ${after.sortKey as number}::bigint * interval '1 microsecond', ${after.id}::uuid)`;
  }

  const nearbyOnly =
    centre && query.distance !== undefined
      ? [
          inArray(locations.privacyLevel, ["full", "city", "region"]),
          isNotNull(locations.latitude),
          between(locations.latitude, centre.lat - query.distance / KM_PER_DEGREE - SNAP_MARGIN_DEGREES, centre.lat + query.distance / KM_PER_DEGREE + SNAP_MARGIN_DEGREES),
          longitudeFilter(centre.lng, centre.lat, query.distance),
          sql`${distance} <= ${query.distance}`,
        ]
      : [];
  const escaped = query.q?.replace(/[\\%_]/g, (c) => `\\${c}`);

  const rows = await db
    .select({
      id: couples.id,
      coupleName: couples.coupleName,
      profileImageUrl: couples.profileImageUrl,
      coupleTypes: couples.coupleTypes,
      status: couples.status,
      partnerAVerified: couples.partnerAVerified,
      partnerBVerified: couples.partnerBVerified,
      createdMicros,
      place: locationColumns,
      distance: distance ?? sql<null>`null`,
      common,
    })
    .from(couples)
    .leftJoin(locations, and(eq(locations.entityType, "couple"), eq(locations.entityId, couples.id)))
    .leftJoin(partnerA, eq(partnerA.id, couples.partner1Id))
    .leftJoin(partnerB, eq(partnerB.id, couples.partner2Id))
    .where(
      and(
        eq(couples.status, "active"),
        eq(couples.isVisible, true),
        viewer ? ne(couples.id, viewer.id) : undefined,
        notBlockedEitherWay(viewerUserId, couples.id),
        escaped ? sql`${couples.coupleName} ilike ${`%${escaped}%`}` : undefined,
        query.interests.length ? hasAnyInterest(query.interests) : undefined,
        query.styles.length ? sql`${couples.coupleTypes} && ${sql.param(query.styles)}::text[]` : undefined,
        query.verified ? and(eq(couples.partnerAVerified, true), eq(couples.partnerBVerified, true)) : undefined,
        ...nearbyOnly,
        keyset,
      ),
    )
    .orderBy(...order)
    .limit(query.limit + 1);

  const page = rows.slice(0, query.limit);
  const hasMore = rows.length > query.limit;
  const last = page.at(-1);
  const numeric = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  const lastKey = (row: (typeof rows)[number]): number =>
    query.sort === "nearest" ? 0 : query.sort === "common" ? Number(row.common) : Number(row.createdMicros);
  return {
    data: page.map((row) => ({
      id: row.id,
      coupleName: row.coupleName,
      profileImageUrl: row.profileImageUrl,
      badge: coupleBadge(row),
      location: shownCoupleLocation(row.place?.id ? row.place : null, "other", null),
      distanceBand: directoryBand(numeric(row.distance)),
      coupleTypes: row.coupleTypes.map((value) => ({ value, label: styleLabels.get(value) ?? value })),
      interestsInCommon: Number(row.common),
    })),
    pagination: { limit: query.limit, hasMore, nextCursor: hasMore && last ? encodeCursor(authSecret(), context, { sortKey: lastKey(last), id: last.id }) : null },
  };
}
