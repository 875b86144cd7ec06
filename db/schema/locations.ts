import { doublePrecision, index, pgEnum, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
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
  ],
);
