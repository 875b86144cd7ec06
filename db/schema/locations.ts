import { customType, doublePrecision, index, integer, pgEnum, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";

export const privacyLevel = pgEnum("privacy_level", ["full", "city", "region", "country", "hidden"]);

/** A place chosen for a user or a couple, with the privacy level that decides what others see. */
export const locations = pgTable(
  "locations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    entityType: text("entity_type", { enum: ["user", "couple"] }).notNull(),
    entityId: uuid("entity_id").notNull(),
    placeId: text("place_id").notNull(),
    displayLocation: text("display_location").notNull(),
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    city: text("city"),
    state: text("state"),
    country: text("country"),
    countryCode: text("country_code"),
    privacyLevel: privacyLevel("privacy_level").notNull().default("city"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("locations_entity_key").on(t.entityType, t.entityId),
    index("locations_lat_lng_idx").on(t.latitude, t.longitude),
    // The nearest-first walks (the directory's nearest sort, discover's candidates) read
    // locations_couple_shown_point_idx, a GiST index of the shown point as a cube (extension cube,
    // SQL function shown_point): hand-written in migration 0009. No walk reads exact points.
    // The directory's nearest walk reads a shown point's couples by id from
    // locations_couple_shown_point_id_idx, a btree on (shown_point(...), entity_id): hand-written in migration 0056.
  ],
);

/** A value of the `cube` extension's type (migration 0009): a shown point as a unit vector. */
const cube = customType<{ data: string }>({ dataType: () => "cube" });

/**
 * Every shown point of a couple's place (SQL `shown_point`, couples with a shown point only), once,
 * with how many couples' places show it: the directory's nearest walk goes from point to point
 * nearest first (GiST), then reads each point's couples by id, so a crowd at one point (one point per
 * city from either place provider) costs a page no more than its page. Kept by triggers on
 * `locations` (migration 0056) in the statement that writes a place, whoever writes it.
 */
export const coupleShownPoints = pgTable(
  "couple_shown_points",
  {
    point: cube("point").primaryKey(),
    couples: integer("couples").notNull(),
  },
  (t) => [index("couple_shown_points_point_idx").using("gist", t.point)],
);
