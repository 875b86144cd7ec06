/**
 * Messaging between couples: connection requests (consent first), conversations between two
 * couples, their messages, and each person's read position and mute.
 *
 * Conventions of this file:
 * - Timestamps are timestamp(3), like the forum's: a JavaScript Date holds them exactly, so keyset
 *   cursors neither skip nor repeat rows.
 * - Keyset indexes are ascending: scanned backwards they serve `order by x desc, id desc` exactly.
 * - A message's place in its conversation is `seq` (one identity for all messages): strictly
 *   increasing in commit order per conversation (the send holds the conversation's row lock), so
 *   read positions, unread counts and "older than" pages compare one number.
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import { reactionKind } from "./forum";
import { couples } from "./couples";
import { users } from "./identity";

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });
const createdAt = () => at("created_at").notNull().defaultNow();

/**
 * `pending` until accepted or declined. A decline is never shown to the sender (spec: declining
 * is silent), and expiry is not a status: a pending request past `expires_at` is expired.
 */
export const connectionStatus = pgEnum("connection_status", ["pending", "accepted", "declined"]);

/**
 * A couple asking another to talk. One open request per pair of couples, whichever sent it, and
 * the 90-day wait before asking again, are both read from the pair index (least, greatest couple
 * id); the send takes an advisory lock on the pair so two requests cannot both pass the check.
 */
export const connectionRequests = pgTable(
  "connection_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    fromCoupleId: uuid("from_couple_id")
      .notNull()
      .references(() => couples.id, { onDelete: "cascade" }),
    /**
     * The couple asked; null once it went with its last partner's account: the hello stays its
     * sender's (their note, their list, their export), to a 'Deleted couple' (deleting an account
     * takes nobody else's words). The sender's couple going takes its hellos (their notes went
     * with their authors already: lib/connections/service.ts eraseRequestNotes).
     */
    toCoupleId: uuid("to_couple_id").references(() => couples.id, { onDelete: "set null" }),
    /** The partner who said hello; null once their account is deleted. */
    sentByUserId: uuid("sent_by_user_id").references(() => users.id, { onDelete: "set null" }),
    note: text("note").notNull(),
    status: connectionStatus("status").notNull().default("pending"),
    createdAt: createdAt(),
    expiresAt: at("expires_at").notNull(),
    answeredAt: at("answered_at"),
    conversationId: uuid("conversation_id").references(() => conversations.id, { onDelete: "set null" }),
  },
  (t) => [
    // 'Requests' in the inbox: the open requests to a couple, newest first.
    index("connection_requests_incoming_idx")
      .on(t.toCoupleId, t.createdAt, t.id)
      .where(sql`${t.status} = 'pending'`),
    // The sender's list, and its daily count.
    index("connection_requests_outgoing_idx").on(t.fromCoupleId, t.createdAt, t.id),
    // Open request and 90-day checks between two couples, whichever sent.
    index("connection_requests_pair_idx").on(
      sql`least(${t.fromCoupleId}, ${t.toCoupleId})`,
      sql`greatest(${t.fromCoupleId}, ${t.toCoupleId})`,
      t.createdAt,
    ),
  ],
);

/** One receiving partner's answer to a request: accepted, or declined (which declines it). */
export const connectionApprovals = pgTable(
  "connection_approvals",
  {
    requestId: uuid("request_id")
      .notNull()
      .references(() => connectionRequests.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accepted: boolean("accepted").notNull(),
    createdAt: createdAt(),
  },
  // By person: the data export's answers to hellos, and the account's erasure (its cascade).
  (t) => [primaryKey({ columns: [t.requestId, t.userId] }), index("connection_approvals_user_idx").on(t.userId)],
);

/**
 * Two couples' one conversation (`couple_low_id` < `couple_high_id`, unique). A couple whose last
 * partner deleted their account becomes null, and the conversation ends. `last_activity_at` and
 * `last_message_id` are kept by the send, so the inbox sorts by one indexed column per side.
 */
export const conversations = pgTable(
  "conversations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    coupleLowId: uuid("couple_low_id").references(() => couples.id, { onDelete: "set null" }),
    coupleHighId: uuid("couple_high_id").references(() => couples.id, { onDelete: "set null" }),
    lastMessageId: uuid("last_message_id"),
    lastActivityAt: at("last_activity_at").notNull().defaultNow(),
    /** Set by a block either way, or when a couple has no partner left: readable, no new messages. */
    endedAt: at("ended_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("conversations_pair_key").on(t.coupleLowId, t.coupleHighId),
    // The inbox: a couple's conversations by latest activity, one index per side.
    index("conversations_low_activity_idx").on(t.coupleLowId, t.lastActivityAt, t.id),
    index("conversations_high_activity_idx").on(t.coupleHighId, t.lastActivityAt, t.id),
  ],
);

/**
 * A message by a person of one of the two couples. Deleting it erases `body` and `photo_url` (set
 * to null) and sets `deleted_at`; the row stays so the thread keeps its place. A deleted
 * account's messages are erased the same way and lose their author.
 */
export const messages = pgTable(
  "messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    seq: bigint("seq", { mode: "number" }).notNull().generatedAlwaysAsIdentity(),
    conversationId: uuid("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    authorUserId: uuid("author_user_id").references(() => users.id, { onDelete: "set null" }),
    authorCoupleId: uuid("author_couple_id").references(() => couples.id, { onDelete: "set null" }),
    body: text("body"),
    photoUrl: text("photo_url"),
    /** The message this one answers (shown quoted above it); a message erased for good leaves none. */
    replyToId: uuid("reply_to_id").references((): AnyPgColumn => messages.id, { onDelete: "set null" }),
    /** When its author last changed its words (within MESSAGE_LIMITS.editWindowMs of sending). */
    editedAt: at("edited_at"),
    deletedAt: at("deleted_at"),
    createdAt: createdAt(),
    /**
     * The composer's key for the message (one per message it sends): the same key sent again just
     * after, its answer lost, answers this message rather than a second (lib/messages/service.ts).
     */
    clientKey: uuid("client_key"),
  },
  (t) => [
    // A thread's pages (newest, older than).
    uniqueIndex("messages_conversation_seq_key").on(t.conversationId, t.seq),
    // A conversation's unread count: each other author's live messages after a read position,
    // never the reader's own (lib/messages/queries.ts unreadIn).
    index("messages_conversation_author_seq_idx")
      .on(t.conversationId, t.authorUserId, t.seq)
      .where(sql`${t.deletedAt} is null`),
    // A person's own messages: the data export and the account's erasure.
    index("messages_author_idx").on(t.authorUserId, t.createdAt),
    // A couple's messages: the reports against it (its moderator page, the reported-by-many rule).
    index("messages_author_couple_idx").on(t.authorCoupleId, t.createdAt),
    // Who may see a photo: the message showing it, found by its URL (lib/messages/photos.ts).
    index("messages_photo_url_idx")
      .on(t.photoUrl)
      .where(sql`${t.photoUrl} is not null`),
  ],
);

/** A person's reaction to a message, one of the forum's five; each kind once per person. */
export const messageReactions = pgTable(
  "message_reactions",
  {
    messageId: uuid("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: reactionKind("kind").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // The key also serves a page of messages' reactions (message_id first).
    primaryKey({ columns: [t.messageId, t.userId, t.kind] }),
    // A person's own reactions: the data export's pages, oldest first, and the account's erasure.
    index("message_reactions_user_created_idx").on(t.userId, t.createdAt),
  ],
);

/** A photo uploaded with `POST /api/messages/photos`: a message may show only its author's own upload, once. */
export const messagePhotos = pgTable(
  "message_photos",
  {
    url: text("url").primaryKey(),
    ownerUserId: uuid("owner_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("message_photos_owner_idx").on(t.ownerUserId),
    // The due work's sweep of photos never sent (lib/messages/photos.ts), oldest first.
    index("message_photos_created_idx").on(t.createdAt),
  ],
);

/**
 * One person's place in one conversation (per person, not per couple): the last message they
 * have read (`seq` 0 before any) and whether they muted it. Written on first read or mute.
 */
export const conversationReads = pgTable(
  "conversation_reads",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    conversationId: uuid("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    lastReadSeq: bigint("last_read_seq", { mode: "number" }).notNull().default(0),
    lastReadMessageId: uuid("last_read_message_id"),
    mutedAt: at("muted_at"),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.conversationId] }),
    // A thread's "Seen by": everyone's position in one conversation.
    index("conversation_reads_conversation_idx").on(t.conversationId),
  ],
);

/**
 * What the unread-message e-mail (lib/messages/unread-email.ts) has told a person about a conversation: when it last
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
