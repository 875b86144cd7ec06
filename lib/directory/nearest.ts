import "server-only";
import { and, eq, inArray, isNotNull, sql, type SQL } from "drizzle-orm";
import { coupleShownPoints, locations } from "@/db/schema";
import { EARTH_RADIUS_KM } from "@/lib/locations/nearby";

/**
 * Nearest-first on GiST indexes: a place's shown point (snapped at its privacy level,
 * SQL function `shown_point` of migration 0009) as a unit vector in a cube, so an index walks
 * points in order of `<->` (the chord between two shown points) and the query stops after its
 * page: `couple_shown_points_point_idx` the distinct shown points (the directory's nearest walk),
 * `locations_couple_shown_point_idx` the places themselves (a distance filter, discover). The chord
 * orders exactly as the great-circle distance and is turned into km here, only to name a band: no figure leaves.
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
 * for couples already narrowed (the nearest walk's page, a search's few matches); `bound`, the chord
 * itself; `pointChord` and `pointWithin`, the same of a distinct shown point (couple_shown_points).
 */
export function nearestSql(centre: Point) {
  const [x, y, z] = unitVector(centre);
  const centreCube = sql`cube(array[${x}, ${y}, ${z}]::float8[])`;
  const chordOfPoint = (point: SQL | typeof coupleShownPoints.point) => sql<number>`(${point} <-> ${centreCube})`;
  const chord = chordOfPoint(shownPoint);
  const pointChord = chordOfPoint(coupleShownPoints.point);
  const bound = (km: number): SQL => sql`${chordOf(km)}::float8`;
  const closerThan = (km: number): SQL => sql`${chord} <= ${bound(km)}`;
  /** Within `km`: the cube around the centre holding every point that close (what an index answers), then the exact bound. */
  const inReach = (point: SQL | typeof coupleShownPoints.point, km: number): SQL =>
    sql`(${point} <@ cube_enlarge(${centreCube}, ${bound(km)}, 3) and ${chordOfPoint(point)} <= ${bound(km)})`;
  return {
    chord,
    pointChord,
    pointWithin: (km: number): SQL => inReach(coupleShownPoints.point, km),
    hasPoint: and(
      eq(locations.entityType, "couple"),
      inArray(locations.privacyLevel, ["full", "city", "region"]),
      isNotNull(locations.latitude),
      isNotNull(locations.longitude),
    )!,
    within: (km: number): SQL => inReach(shownPoint, km),
    closerThan,
    /** The chord `km` away (SQL), for a walk's own rows (`closerThan` reads the joined place). */
    bound,
  };
}
