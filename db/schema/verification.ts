/**
 * Photo verification: one row per person, the state of their posed selfie's review. The selfie
 * itself is a private object (lib/storage/keys.ts) named only while it waits for a moderator;
 * once decided, the file and its key go and only the decision and its date stay.
 *
 * `couples.photo_verified_partners` (how many of the couple's partners are verified: the badges
 * and the directory's filter) is kept from these rows by the trigger of migration 0028
 * (hand-written part), so a row that goes with a deleted account updates it too.
 */
import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { updatedAt } from "./columns";
import { couples } from "./couples";
import { users } from "./identity";

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

export const photoVerifications = pgTable(
  "photo_verifications",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    coupleId: uuid("couple_id")
      .notNull()
      .references(() => couples.id, { onDelete: "cascade" }),
    /** lib/verification/rules.ts VERIFICATION_STATUSES. */
    status: text("status").notNull().default("not_started"),
    /** The pose asked for (lib/verification/rules.ts POSES), picked by the server; the selfie's while pending. */
    pose: text("pose").notNull(),
    /** The selfie's private storage key, only while pending. */
    selfieKey: text("selfie_key"),
    submittedAt: at("submitted_at"),
    decidedAt: at("decided_at"),
    /** Why a moderator refused (lib/verification/rules.ts REFUSAL_REASONS); null otherwise. */
    refusalReason: text("refusal_reason"),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The moderators' queue: pending selfies, oldest first (keyset on submitted_at, user_id).
    index("photo_verifications_pending_idx")
      .on(t.submittedAt, t.userId)
      .where(sql`${t.status} = 'pending'`),
    // The couple's count of verified partners, read by the trigger that keeps it.
    index("photo_verifications_couple_verified_idx")
      .on(t.coupleId)
      .where(sql`${t.status} = 'verified'`),
  ],
);
