import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { sessions, users } from "./identity";
import { notifications, notificationTypeColumn } from "./notifications";

/**
 * One device's Web Push subscription (RFC 8030): the push service's endpoint the browser handed
 * us and the keys its payloads are encrypted to (RFC 8291). Made under one browser session: when
 * that session ends (sign-out) the subscription stops and is removed; a person has at most 10.
 */
export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    sessionId: uuid("session_id").references(() => sessions.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    /** 'Chrome on Android': named from the browser's User-Agent when it subscribed. */
    label: text("label").notNull(),
    createdAt: createdAt(),
    lastDeliveredAt: timestamp("last_delivered_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("push_subscriptions_endpoint_key").on(t.endpoint),
    index("push_subscriptions_user_idx").on(t.userId, t.createdAt),
    index("push_subscriptions_session_idx").on(t.sessionId),
    check(
      "push_subscriptions_lengths",
      sql`length(${t.endpoint}) <= 1024 and length(${t.p256dh}) <= 128 and length(${t.auth}) <= 64 and length(${t.label}) <= 60`,
    ),
  ],
);

/** A person's push choices beyond the per-type ones: message previews (off until chosen), the one prompt. */
export const pushSettings = pgTable("push_settings", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  showPreviews: boolean("show_previews").notNull().default(false),
  /** When the gentle prompt was answered or dismissed: it is not shown again. */
  promptDoneAt: timestamp("prompt_done_at", { withTimezone: true }),
});

/**
 * A push waiting to leave (the outbox of lib/notifications/push/deliver.ts), written in the
 * transaction of the change it tells about. One waiting row per device and topic: a conversation's
 * next message updates it (`count`) instead of adding one. A sender claims rows (claimed_at) in a
 * committed transaction before it calls the push service, so two instances never send one twice.
 */
export const pushOutbox = pgTable(
  "push_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    subscriptionId: uuid("subscription_id")
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: "cascade" }),
    /** The in-app row it tells about: once that is read (the conversation open on a screen), nothing is sent. */
    notificationId: uuid("notification_id").references(() => notifications.id, { onDelete: "cascade" }),
    type: notificationTypeColumn(),
    /** RFC 8030 Topic (a conversation's): a newer push replaces the older one still undelivered. */
    topic: text("topic"),
    conversationId: uuid("conversation_id"),
    /** The plan it tells of (notifications.planId). */
    planId: uuid("plan_id"),
    actorCoupleId: uuid("actor_couple_id"),
    /** Who acted (its words name them): a push still waiting goes with their account. */
    actorUserId: uuid("actor_user_id").references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    body: text("body").notNull(),
    url: text("url").notNull(),
    urgency: text("urgency", { enum: ["high", "normal"] }).notNull(),
    count: integer("count").notNull().default(1),
    attempts: integer("attempts").notNull().default(0),
    dueAt: timestamp("due_at", { withTimezone: true }).notNull().defaultNow(),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("push_outbox_waiting_topic")
      .on(t.subscriptionId, t.topic)
      .where(sql`${t.claimedAt} is null and ${t.topic} is not null`),
    index("push_outbox_due_idx")
      .on(t.dueAt)
      .where(sql`${t.claimedAt} is null`),
    index("push_outbox_claimed_idx")
      .on(t.claimedAt)
      .where(sql`${t.claimedAt} is not null`),
    index("push_outbox_actor_idx")
      .on(t.actorUserId)
      .where(sql`${t.actorUserId} is not null`),
    // A device's pushes: a suspension erases those to the couple's devices (pushesWithOthers), and a
    // device removed takes its own (the foreign key's cascade) without reading the whole outbox.
    index("push_outbox_subscription_idx").on(t.subscriptionId),
    // A block or a suspension erases the pushes waiting between couples (lib/notifications/push/outbox.ts pushesBetween, pushesWithOthers).
    index("push_outbox_actor_couple_idx")
      .on(t.actorCoupleId)
      .where(sql`${t.actorCoupleId} is not null`),
  ],
);
