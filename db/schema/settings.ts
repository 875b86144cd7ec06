import { boolean, index, pgTable, primaryKey, timestamp, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";
import { users } from "./identity";
import { notificationTypeColumn } from "./notifications";

/**
 * A person's choice per notification type: shown in the app, sent by e-mail. No row means the
 * defaults of lib/notifications/preferences.ts (DEFAULT_PREFERENCES).
 */
export const notificationPreferences = pgTable(
  "notification_preferences",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: notificationTypeColumn(),
    inApp: boolean("in_app").notNull(),
    email: boolean("email").notNull(),
    /** On this person's devices with notifications on; null: the type's default (added after the others). */
    push: boolean("push"),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.type] })],
);

/**
 * The one-click unsubscribe link of one notification e-mail: a random secret of which only the
 * SHA-256 is stored, naming the person and the type it turns e-mail off for. Works once.
 */
export const unsubscribeTokens = pgTable(
  "unsubscribe_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: notificationTypeColumn(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("unsubscribe_tokens_hash_key").on(t.tokenHash),
    index("unsubscribe_tokens_user_idx").on(t.userId),
    // The due work's sweep of links past their expiry (lib/notifications/preferences.ts).
    index("unsubscribe_tokens_expires_idx").on(t.expiresAt),
  ],
);
