import "server-only";
import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { literalLimit } from "@/db/prepared";
import { coupleShownPoints, couples, locations } from "@/db/schema";
import { EARTH_RADIUS_KM } from "@/lib/locations/nearby";

/**
 * Nearest-first on GiST indexes: a place's shown point (snapped at its privacy level,
 * SQL function `shown_point` of migration 0009) as a unit vector in a cube, so an index walks
 * points in order of `<->` (the chord between two shown points) and the query stops after its
 * page: `couple_shown_points_point_idx` the distinct shown points (the nearest walk, nearestCouples:
 * the directory's nearest sort, discover's nearest candidates), `locations_couple_shown_point_idx`
 * the places themselves (a distance filter). The chord
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
 * itself; `pointChord` and `pointWithin`, the same of a distinct shown point (couple_shown_points);
 * `pastCursor`, the couples after a cursor's (chord, id) in the nearest order.
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
    // In literals: a named statement's generic plan cannot prove the partial indexes' predicate over bound values.
    hasPoint: sql`(${locations.entityType} = 'couple' and ${locations.privacyLevel} in ('full', 'city', 'region')
      and ${locations.latitude} is not null and ${locations.longitude} is not null)`,
    within: (km: number): SQL => inReach(shownPoint, km),
    closerThan,
    /** The chord `km` away (SQL), for a walk's own rows (`closerThan` reads the joined place). */
    bound,
    pastCursor: (after: NearestCursor): SQL => sql`(${chord}, ${couples.id}) > (${after.chord}::float8, ${after.id}::uuid)`,
  };
}

/** A place in the nearest order: the last couple's chord and id. */
export type NearestCursor = { chord: number; id: string };

/**
 * The `size` nearest couples among `among` (SQL on the couple and its joined place) with a shown
 * point, in the nearest order (the chord, then the id at equal distance), past `after` and within
 * `km` when given: the SQL condition `couples.id = any(...)`, for a statement that orders its own rows.
 * The walk goes from shown point to shown point nearest first (couple_shown_points_point_idx) and
 * takes up to `size` of each point's couples by id (locations_couple_shown_point_id_idx), then
 * orders them by distance and id: many couples share a snapped point (one per city from either
 * place provider), and a crowd costs a walk no more than its size. A KNN walk orders by the
 * distance alone (Postgres matches every ORDER BY key to the index or none), so it takes `size`
 * and every couple tied with the last (`with ties`: at most `size` from each point that far).
 * Points nearer than the cursor are passed over, those beyond `km` never read; at the cursor's own
 * chord the index starts at the cursor's couple (`from`, the keyset then exact), at a farther one
 * at the smallest uuid. The sizes are literals, so a named statement of it keeps a generic plan.
 */
export function nearestCouples(
  db: Db,
  near: ReturnType<typeof nearestSql>,
  { among, size, after, km }: { among: SQL | undefined; size: number; after?: NearestCursor; km?: number },
): SQL {
  const from = after
    ? sql`${locations.entityId} >= case when ${near.pointChord} = ${after.chord}::float8 then ${after.id}::uuid else '00000000-0000-0000-0000-000000000000'::uuid end`
    : undefined;
  const atPoint = db
    .select({ id: couples.id })
    .from(locations)
    .innerJoin(couples, eq(couples.id, locations.entityId))
    .where(and(sql`${shownPoint} = ${coupleShownPoints.point}`, near.hasPoint, among, after ? near.pastCursor(after) : undefined, from))
    .orderBy(asc(locations.entityId))
    .limit(literalLimit(size));
  const points = and(
    after ? sql`${near.pointChord} >= ${after.chord}::float8` : undefined,
    km === undefined ? undefined : near.pointWithin(km),
  );
  const walk = sql`select ${near.pointChord} as chord, at_point.id from ${coupleShownPoints} cross join lateral (${atPoint}) at_point
    ${points ? sql`where ${points}` : sql``} order by chord fetch first ${literalLimit(size)} rows with ties`;
  // An array, so the walk runs once (as `in` it may run again for every couple it is joined to).
  return sql`${couples.id} = any(array(select walked.id from (${walk}) walked order by walked.chord, walked.id limit ${literalLimit(size)}))`;
}
