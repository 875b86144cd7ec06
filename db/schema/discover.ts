import { index, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { couples } from "./couples";

/**
 * 'Not for us' on /discover: the couple `coupleId` hides `dismissedCoupleId` from its suggestions
 * until `hiddenUntil` (30 days later). Dismissing again moves the date on; once it has passed the
 * row simply stops counting (no clean-up job needed).
 */
export const discoverDismissals = pgTable(
  "discover_dismissals",
  {
    coupleId: uuid("couple_id")
      .notNull()
      .references(() => couples.id, { onDelete: "cascade" }),
    dismissedCoupleId: uuid("dismissed_couple_id")
      .notNull()
      .references(() => couples.id, { onDelete: "cascade" }),
    hiddenUntil: timestamp("hidden_until", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.coupleId, t.dismissedCoupleId] }), index("discover_dismissals_dismissed_idx").on(t.dismissedCoupleId)],
);

/**
 * A couple's discover candidates, ranked when discover was last computed for it, and
 * the directory's nearest couples: the dashboard and GET /api/discover read this instead of
 * searching, scoring and walking the nearest on every view.
 * Only the ids are kept: each read re-checks them (discoverable, not blocked, not dismissed) and
 * scores them again on live rows, so a reason or a distance band is never older than the read.
 * Stale after a day or once `inputsKey` (the viewer's own interests, styles and shown place)
 * no longer matches; then it is computed again.
 */
export const discoverSummaries = pgTable("discover_suggestions", {
  coupleId: uuid("couple_id")
    .primaryKey()
    .references(() => couples.id, { onDelete: "cascade" }),
  candidateIds: uuid("candidate_ids").array().notNull(),
  /** The directory's nearest within 200 km (the dashboard's 'Couples near you'); null when the couple has no shown place. */
  nearIds: uuid("near_ids").array(),
  inputsKey: text("inputs_key").notNull(),
  computedAt: timestamp("computed_at", { withTimezone: true }).notNull(),
});
