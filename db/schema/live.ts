import { bigint, index, pgEnum, pgTable, primaryKey, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { users } from "./identity";
import { conversations } from "./messages";

/**
 * What a live event says changed (the stream's event names, README "Live updates"). `unread` asks
 * the stream to send the person's fresh message and notification counts.
 */
export const liveEventKind = pgEnum("live_event_kind", ["message", "message_deleted", "read", "connection", "notification", "unread"]);

/**
 * One row per person per change they must see: the database is the source of every live event, so
 * a stream resumed with `Last-Event-ID` reads exactly what it missed. `seq` increases strictly per
 * person (allocated from live_sequences under its row lock, so it also commits in order). Rows
 * name what changed, not what it said: the stream reads the current rows when it sends, so an
 * erased message is sent erased and a person who lost access is sent nothing.
 */
export const liveEvents = pgTable(
  "live_events",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    seq: bigint("seq", { mode: "number" }).notNull(),
    kind: liveEventKind("kind").notNull(),
    conversationId: uuid("conversation_id"),
    /** The message, connection request or notification; for `read`, the reader. */
    subjectId: uuid("subject_id"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.seq] }), index("live_events_created_idx").on(t.createdAt)],
);

/** Each person's last allocated live event `seq`; its row lock orders one person's events. */
export const liveSequences = pgTable("live_sequences", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  lastSeq: bigint("last_seq", { mode: "number" }).notNull().default(0),
});

/**
 * What the unread-message e-mail (lib/due) has told a person about a conversation: when it last
 * wrote (at most one e-mail per conversation per hour) and up to which message `seq`, so a
 * message is never in two e-mails.
 */
export const messageEmails = pgTable(
  "message_emails",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    conversationId: uuid("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull(),
    upToSeq: bigint("up_to_seq", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.conversationId] })],
);
