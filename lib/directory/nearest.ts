import "server-only";
import { and, eq, inArray, isNotNull, sql, type SQL } from "drizzle-orm";
import { locations } from "@/db/schema";
import { EARTH_RADIUS_KM } from "@/lib/locations/nearby";

/**
 * Nearest-first on a GiST index: a place's shown point (snapped at its privacy level,
 * SQL function `shown_point` of migration 0009) as a unit vector in a cube, so the index
 * `locations_couple_shown_point_idx` walks places in order of `<->` (the chord between two
 * shown points) and the query stops after its page. The chord orders exactly as the
 * great-circle distance and is turned into km here, only to name a band: no figure leaves.
 */

type Point = { lat: number; lng: number };

/** A point on the unit sphere, as the SQL `shown_point` computes it. */
export function unitVector({ lat, lng }: Point): [number, number, number] {
  const phi = (lat * Math.PI) / 180;
  const lambda = (lng * Math.PI) / 180;
  return [Math.cos(phi) * Math.cos(lambda), Math.cos(phi) * Math.sin(lambda), Math.sin(phi)];
}

/** The chord between two points on the unit sphere `km` apart along the surface. */
export const chordOf = (km: number) => 2 * Math.sin(Math.min(Math.PI / 2, km / (2 * EARTH_RADIUS_KM)));

/** Great-circle km of a chord (haversine's 2R asin(√h), where √h is half the chord). */
export const kmOfChord = (chord: number) => 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, chord / 2));

/** The shown point of the joined couple's place; null for hidden, country-level or unknown places. */
export const shownPoint = sql`shown_point(${locations.privacyLevel}, ${locations.latitude}, ${locations.longitude})`;

/**
 * The nearest sort's SQL around `centre` (the viewer's shown point): `chord`, the sort key;
 * `hasPoint`, the partial index's predicate (the query must repeat it for the planner to use
 * the index); `within`, the distance filter the index narrows; `closerThan`, the same bound alone,
 * for couples already narrowed (the nearest walk's page, a search's few matches); `bound`, the chord itself.
 */
export function nearestSql(centre: Point) {
  const [x, y, z] = unitVector(centre);
  const centreCube = sql`cube(array[${x}, ${y}, ${z}]::float8[])`;
  const chord = sql<number>`(${shownPoint} <-> ${centreCube})`;
  const bound = (km: number): SQL => sql`${chordOf(km)}::float8`;
  const closerThan = (km: number): SQL => sql`${chord} <= ${bound(km)}`;
  return {
    chord,
    hasPoint: and(
      eq(locations.entityType, "couple"),
      inArray(locations.privacyLevel, ["full", "city", "region"]),
      isNotNull(locations.latitude),
      isNotNull(locations.longitude),
    )!,
    /** Within `km`: the cube around the centre holding every point that close (what the index answers), then the exact bound. */
    within: (km: number): SQL => sql`(${shownPoint} <@ cube_enlarge(${centreCube}, ${bound(km)}, 3) and ${closerThan(km)})`,
    closerThan,
    /** The chord `km` away (SQL), for a walk's own rows (`closerThan` reads the joined place). */
    bound,
  };
}
