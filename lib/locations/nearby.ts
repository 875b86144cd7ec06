import "server-only";
import { and, asc, between, eq, exists, inArray, isNotNull, lte, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, locations } from "@/db/schema";
import { LIMITS, spendLimits } from "@/lib/rate-limit";
import { seenByOther } from "@/lib/safety/visibility";
import type { Actor } from "./access";
import { locationColumns } from "./place";
import { SNAP_STEPS, shapeLocation, type NormalizedLocation } from "./privacy";
import type { NearbyQuery } from "./schemas";

export const EARTH_RADIUS_KM = 6371.0088;
export const KM_PER_DEGREE = (Math.PI * EARTH_RADIUS_KM) / 180;
/** Snapping to the 1° region grid moves a point by at most half a degree on each axis. */
export const SNAP_MARGIN_DEGREES = 0.5 + 1e-9;

export type NearbyEntry = { entity_type: "couple"; entity_id: string; distance_km: number; location: NormalizedLocation };

/**
 * The coordinates others may see, as SQL: the same floor(x * steps + 0.5) / steps as `snap`.
 * Distances are measured between these, never the stored point, so repeated queries from
 * different centres cannot narrow a city-level place down to its exact spot.
 */
export function shown(column: typeof locations.latitude | typeof locations.longitude): SQL<number> {
  const city = SNAP_STEPS.city!;
  const region = SNAP_STEPS.region!;
  return sql<number>`(case ${locations.privacyLevel}
    when 'full' then ${column}
    when 'city' then floor(${column} * ${sql.raw(String(city))} + 0.5) / ${sql.raw(String(city))}
    when 'region' then floor(${column} * ${sql.raw(String(region))} + 0.5) / ${sql.raw(String(region))}
  end)`.mapWith(Number);
}

/** Longitude window of the bounding box, split at the antimeridian; null when it spans the globe. */
export function longitudeFilter(lng: number, lat: number, radiusKm: number): SQL | undefined {
  const cos = Math.cos((Math.min(89, Math.abs(lat) + radiusKm / KM_PER_DEGREE) * Math.PI) / 180);
  const half = radiusKm / (KM_PER_DEGREE * cos) + SNAP_MARGIN_DEGREES;
  if (half >= 180) return undefined;
  const lo = lng - half;
  const hi = lng + half;
  if (lo < -180) return or(between(locations.longitude, lo + 360, 180), between(locations.longitude, -180, hi));
  if (hi > 180) return or(between(locations.longitude, lo, 180), between(locations.longitude, -180, hi - 360));
  return between(locations.longitude, lo, hi);
}

/**
 * Couples' places within `radius` km of a point, nearest first: a bounding box on the stored
 * coordinates (index locations_lat_lng_idx) narrows the rows, haversine on the shown ones
 * decides. Only couples discoverable to the caller, never their own and never a person (a
 * person's place is theirs and their partner's); hidden and country-level places have no shown
 * point, so they are never nearby. Each call counts against the caller's limit: a centre moved
 * call by call would otherwise sweep the network for where couples are.
 */
export async function nearby(db: Db, query: NearbyQuery, actor: Actor): Promise<NearbyEntry[]> {
  await spendLimits(db, [[LIMITS.nearbyPerUser, actor.userId]]);
  const { lat, lng, radius, limit } = query;
  const latHalf = radius / KM_PER_DEGREE + SNAP_MARGIN_DEGREES;
  const shownLat = shown(locations.latitude);
  const shownLng = shown(locations.longitude);
  // Parameters are cast: in `2 * $1` Postgres would otherwise guess an integer.
  const centreLat = sql`${lat}::double precision`;
  const centreLng = sql`${lng}::double precision`;
  const distance = sql<number>`(2 * ${sql.raw(String(EARTH_RADIUS_KM))} * asin(least(1, sqrt(
    power(sin(radians(${shownLat} - ${centreLat}) / 2), 2)
    + cos(radians(${centreLat})) * cos(radians(${shownLat})) * power(sin(radians(${shownLng} - ${centreLng}) / 2), 2)))))`.mapWith(Number);
  const seenCouple = db
    .select({ id: couples.id })
    .from(couples)
    .where(and(eq(couples.id, locations.entityId), seenByOther({ userId: actor.userId })));

  const rows = await db
    .select({
      entityId: locations.entityId,
      ...locationColumns,
      distance,
    })
    .from(locations)
    .where(
      and(
        inArray(locations.privacyLevel, ["full", "city", "region"]),
        isNotNull(locations.latitude),
        isNotNull(locations.longitude),
        between(locations.latitude, lat - latHalf, lat + latHalf),
        longitudeFilter(lng, lat, radius),
        lte(distance, radius),
        eq(locations.entityType, "couple"),
        exists(seenCouple),
      ),
    )
    .orderBy(asc(distance), asc(locations.id))
    .limit(limit);

  return rows.map(({ entityId, distance: km, ...row }) => ({
    entity_type: "couple",
    entity_id: entityId,
    // Shown to 0.1 km; the point it is measured from is already the coarse one.
    distance_km: Math.round(km * 10) / 10,
    location: shapeLocation(row, "other")!,
  }));
}
