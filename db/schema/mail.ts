import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
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
    /** Tries that failed or were handed to the due work (lib/mail/outbox.ts); it gives up after EMAIL_ATTEMPTS. */
    attempts: integer("attempts").notNull().default(0),
    /**
     * When the due work tries it (again): set as it is queued, in case the first try never comes
     * (an instance stopped after the commit), and after each failed try; null once delivered or given up.
     */
    retryAt: timestamp("retry_at", { withTimezone: true }),
    /**
     * The people with an account the e-mail is for or names or quotes (its recipient, who reacted,
     * whose messages, who invited): it goes when one of them deletes their account, whatever
     * address it went to (lib/account/deletion.ts).
     */
    aboutUserIds: uuid("about_user_ids")
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    /** Whose account it goes to (null: an address with no account yet, an invitation's). */
    recipientId: uuid("recipient_id"),
    /**
     * The notification type it tells of, and its conversation: its person's choices are read again
     * as it is sent, each try (lib/notifications/wanted.ts), and it is not sent once they turned
     * that e-mail off. Null: a transactional e-mail (a link to verify, reset, accept), which goes.
     */
    notificationType: text("notification_type"),
    conversationId: uuid("conversation_id"),
    /** The plan it tells of (notifications.planId). */
    planId: uuid("plan_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("email_outbox_to_idx").on(t.to, t.createdAt),
    // The due work's reads by age: the e-mails a run just queued, and those past EMAIL_KEPT_DAYS.
    index("email_outbox_created_idx").on(t.createdAt),
    index("email_outbox_about_idx").using("gin", t.aboutUserIds),
    // The due work's retries: only e-mails still to be tried are in it.
    index("email_outbox_retry_idx")
      .on(t.retryAt)
      .where(sql`${t.retryAt} is not null`),
    // A notification's e-mail is judged by its person's choices: it names them.
    check("email_outbox_notification_recipient_check", sql`${t.notificationType} is null or ${t.recipientId} is not null`),
  ],
);
