import { index, pgTable, primaryKey, timestamp, uuid } from "drizzle-orm/pg-core";
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
