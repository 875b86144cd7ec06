import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { couples } from "./couples";
import { users } from "./identity";
import { conversations } from "./messages";

/**
 * A notification type (notifications, preferences, unsubscribe links): one of the types defined in
 * lib/notifications/types (each its file, listed in its index.ts). Text, not an enum: the
 * definitions are the one list, so a new type is its file and one line there, with no migration.
 */
export const notificationTypeColumn = () => text("type").notNull();

/**
 * In-app notifications, one row per recipient user. `message` is the body shown (the spec's
 * content_snippet or message); post and reply ids link forum notifications to their place.
 * A conversation's new messages make one `message` row per person (group key
 * `conversation:{id}`), refreshed by each message, and made unread again by one after it was read.
 * Reactions are grouped (Mastodon-style): `group_key` names the target and the day, at most one
 * unread row per user and key exists (the partial unique index the reaction write upserts on),
 * and `actor_count` is how many different couples that row stands for.
 */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: notificationTypeColumn(),
    title: text("title").notNull(),
    message: text("message").notNull(),
    postId: uuid("post_id"),
    replyId: uuid("reply_id"),
    /** The plan a plan's notice tells of: a removed plan's notices are withdrawn by it, not by their words (lib/plans/ending.ts). */
    planId: uuid("plan_id"),
    /** Messaging notifications open their conversation (or the requests, when null). */
    conversationId: uuid("conversation_id").references(() => conversations.id, { onDelete: "cascade" }),
    actorUserId: uuid("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    actorCoupleId: uuid("actor_couple_id").references(() => couples.id, { onDelete: "set null" }),
    groupKey: text("group_key"),
    actorCount: integer("actor_count").notNull().default(1),
    isRead: boolean("is_read").notNull().default(false),
    readAt: timestamp("read_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    // Ascending, as the forum's keyset indexes: scanned backwards it serves `order by created_at
    // desc, id desc` and stops at the page; Drizzle's `.desc()` writes DESC NULLS LAST, which a
    // plain `desc` order cannot use, so every person's notifications were read and sorted.
    index("notifications_user_created_idx").on(t.userId, t.createdAt, t.id),
    // The bell's unread count reads only this small index, however many rows a user has.
    index("notifications_user_unread_idx")
      .on(t.userId)
      .where(sql`${t.isRead} = false`),
    // A group's newest row, read or not: a conversation's one row comes back when it is written in again.
    index("notifications_user_group_created_idx")
      .on(t.userId, t.groupKey, t.createdAt)
      .where(sql`${t.groupKey} is not null`),
    uniqueIndex("notifications_unread_group_key")
      .on(t.userId, t.groupKey)
      .where(sql`${t.isRead} = false and ${t.groupKey} is not null`),
    // An account's deletion removes the notifications naming its person as the actor, and the
    // foreign keys clear the actor when a person or a couple goes: found without reading them all.
    index("notifications_actor_user_idx")
      .on(t.actorUserId)
      .where(sql`${t.actorUserId} is not null`),
    // The due work marks a hello's notice read once the hello expired (lib/connections/expiry.ts):
    // the unread ones alone, oldest first.
    index("notifications_hello_unread_created_idx")
      .on(t.createdAt)
      .where(sql`${t.type} = 'connection_request' and ${t.isRead} = false`),
    index("notifications_actor_couple_idx")
      .on(t.actorCoupleId)
      .where(sql`${t.actorCoupleId} is not null`),
    // What a notification is about: a post or reply edited, deleted, hidden or removed rewords or
    // withdraws its notices, and a mention is told once (lib/forum/notices.ts `quoting`,
    // tellMentioned); a removed plan withdraws its own (lib/plans/ending.ts). Found here, not by
    // reading every notice their author sent or the people told hold. (post_id, reply_id): a
    // post's own notices (reply_id null) without those of its replies.
    index("notifications_post_reply_idx")
      .on(t.postId, t.replyId)
      .where(sql`${t.postId} is not null`),
    index("notifications_plan_idx")
      .on(t.planId)
      .where(sql`${t.planId} is not null`),
    // A conversation's notices: a plan's written before they named it, a block's reminders, and
    // the foreign key's cascade.
    index("notifications_conversation_idx")
      .on(t.conversationId)
      .where(sql`${t.conversationId} is not null`),
  ],
);
