import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/**
 * Every e-mail is written here in the transaction that causes it (transactional outbox),
 * then delivered by the configured provider; without one, this table is the dev outbox.
 */
export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    /** Extra headers (List-Unsubscribe on notification e-mails), handed to the provider as they are. */
    headers: jsonb("headers").$type<Record<string, string>>(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    lastError: text("last_error"),
    /**
     * The people the e-mail names or quotes besides its recipient (who reacted, whose messages,
     * who invited): it goes when one of them deletes their account (lib/account/deletion.ts).
     */
    aboutUserIds: uuid("about_user_ids")
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    createdAt: createdAt(),
  },
  (t) => [index("email_outbox_to_idx").on(t.to, t.createdAt), index("email_outbox_about_idx").using("gin", t.aboutUserIds)],
);
