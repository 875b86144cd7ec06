import "server-only";
import { and, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { alias, QueryBuilder } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { placeholderSql, preparedPer } from "@/db/prepared";
import { couples, forumPosts, locations } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { locationColumns } from "@/lib/locations/place";
import { coupleOfUser } from "@/lib/safety/blocks";
import { seenByViewer } from "@/lib/safety/visibility";
import { FORUM_TEXTS } from "./rules";
import { cityLevelPlace, LEVELS_SHOWING, type ForumPlace } from "./place";

const EARTH_RADIUS_KM = 6371.0088;
const KM_PER_DEGREE = (Math.PI * EARTH_RADIUS_KM) / 180;

const placeOf = (db: Db, coupleId: string | SQL) =>
  db
    .select(locationColumns)
    .from(locations)
    .where(and(eq(locations.entityType, "couple"), eq(locations.entityId, coupleId)))
    .limit(1);

/** The couple's place for the local forum (posting, and the centre of the list), or null without a usable one. */
export async function couplePlace(db: Db, coupleId: string): Promise<ForumPlace | null> {
  const [row] = await placeOf(db, coupleId);
  return row ? cityLevelPlace(row) : null;
}

/** Prepared: every local list (the forum's, the dashboard's card) starts from the reader's couple's place. */
const placeOfUsersCouple = preparedPer((db) => placeOf(db, coupleOfUser(placeholderSql("userId"))).prepare("forum_place_of_user"));

/** The place of the person's couple for the local forum, or null without a usable one. */
export async function userCouplePlace(db: Db, userId: string): Promise<ForumPlace | null> {
  const [row] = await placeOfUsersCouple(db).execute({ userId });
  return row ? cityLevelPlace(row) : null;
}

const placeCouple = alias(couples, "place_couple");

/**
 * SQL over `forum_posts`: whether a local post's place is still shown to the viewer's couple. A
 * post carries the place its couple showed when it was posted; once the couple hides its place,
 * shows it less finely than then (LEVELS_SHOWING), or hides itself (hidden, suspended), the viewer
 * may see the place no more: the post leaves the local lists and shows neither place nor
 * distance. Its own couple always sees it.
 */
export const placeShownTo = (viewerCouple: string | SQL): SQL<boolean> =>
  sql<boolean>`(${forumPosts.coupleId} = ${viewerCouple} or exists (${new QueryBuilder()
    .select({ one: sql`1` })
    .from(placeCouple)
    .innerJoin(locations, and(eq(locations.entityType, "couple"), eq(locations.entityId, placeCouple.id)))
    .where(
      and(
        eq(placeCouple.id, forumPosts.coupleId),
        seenByViewer(viewerCouple, placeCouple),
        or(
          inArray(locations.privacyLevel, [...LEVELS_SHOWING.city]),
          and(eq(forumPosts.placeLevel, "region"), inArray(locations.privacyLevel, [...LEVELS_SHOWING.region])),
        ),
      ),
    )}))`;

export const locationRequired = () => new AppError("LOCATION_REQUIRED", FORUM_TEXTS.noLocation);

/** A place's coordinates as SQL values: numbers, or a prepared list's bound values. */
type Coordinate = number | SQL;

/** Haversine between a post's stored (already snapped) point and the centre, in km. */
export function distanceFrom(centre: { latitude: Coordinate; longitude: Coordinate }): SQL<number> {
  const lat = sql`${centre.latitude}::double precision`;
  const lng = sql`${centre.longitude}::double precision`;
  return sql<number>`(2 * ${sql.raw(String(EARTH_RADIUS_KM))} * asin(least(1, sqrt(
    power(sin(radians(${forumPosts.latitude} - ${lat}) / 2), 2)
    + cos(radians(${lat})) * cos(radians(${forumPosts.latitude})) * power(sin(radians(${forumPosts.longitude} - ${lng}) / 2), 2)))))`.mapWith(
    Number,
  );
}

/** A bounding box: its latitudes, and one span of longitudes (west, east), or two across the antimeridian. */
export type Box<T = number> = { south: T; north: T; spans: [west: T, east: T][] };

/** The bounding box around the centre that holds every point within the radius. */
export function boundingBox(centre: { latitude: number; longitude: number }, radiusKm: number): Box {
  const latHalf = radiusKm / KM_PER_DEGREE;
  const cos = Math.cos((Math.min(89, Math.abs(centre.latitude) + latHalf) * Math.PI) / 180);
  const lngHalf = Math.min(180, radiusKm / (KM_PER_DEGREE * cos));
  const lo = centre.longitude - lngHalf;
  const hi = centre.longitude + lngHalf;
  return {
    south: Math.max(-90, centre.latitude - latHalf),
    north: Math.min(90, centre.latitude + latHalf),
    spans:
      lngHalf >= 180
        ? [[-180, 180]]
        : lo < -180
          ? [
              [lo + 360, 180],
              [-180, hi],
            ]
          : hi > 180
            ? [
                [lo, 180],
                [-180, hi - 360],
              ]
            : [[lo, hi]],
  };
}

/**
 * SQL: a post's point within the box, which the GiST point index (`forum_posts_local_box_idx`)
 * narrows first. The scope is written as a literal, so the partial index applies to generic plans
 * of the prepared statement too; the bounds may be bound values (their number of spans is the
 * statement's shape).
 */
export function withinBox(box: Box<Coordinate>): SQL {
  const span = ([west, east]: [Coordinate, Coordinate]) =>
    sql`point(${forumPosts.longitude}, ${forumPosts.latitude}) <@ box(point(${west}::float8, ${box.south}::float8), point(${east}::float8, ${box.north}::float8))`;
  const [first, second] = box.spans;
  return sql`${forumPosts.scope} = 'local' and ${second ? sql`(${span(first!)} or ${span(second)})` : span(first!)}`;
}
