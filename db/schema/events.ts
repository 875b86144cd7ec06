import { index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";
import { couples } from "./couples";
import { users } from "./identity";

/** 'Notify us when events launch': one row per couple that asked (either partner's click counts for both). */
export const eventsWaitlist = pgTable("events_waitlist", {
  coupleId: uuid("couple_id")
    .primaryKey()
    .references(() => couples.id, { onDelete: "cascade" }),
  userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
  createdAt: createdAt(),
});

/**
 * A paid event drafted by a couple with `can_create_paid_events`. Only that couple sees its drafts
 * (publishing comes with the events launch). The place is kept as the city-level name the
 * location autocomplete resolved, never a street address shown to others.
 */
export const eventDrafts = pgTable(
  "event_drafts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    coupleId: uuid("couple_id")
      .notNull()
      .references(() => couples.id, { onDelete: "cascade" }),
    createdByUserId: uuid("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    placeId: text("place_id").notNull(),
    placeName: text("place_name").notNull(),
    capacity: integer("capacity").notNull(),
    priceCents: integer("price_cents").notNull(),
    currency: text("currency").notNull(),
    description: text("description").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("event_drafts_couple_idx").on(t.coupleId, t.createdAt)],
);
