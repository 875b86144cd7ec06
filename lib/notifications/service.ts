import "server-only";
import { and, count, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { getDb, type Db } from "@/db/client";
import { preparedPer } from "@/db/prepared";
import { transaction } from "@/db/transaction";
import { couples, notifications, users } from "@/db/schema";
import { describeError } from "@/lib/log";
import { publishLive } from "@/lib/live/publish";
import { deliverAfterResponse, enqueueEmail } from "@/lib/mail/outbox";
import { notificationEmail } from "@/lib/mail/templates";
import { coupleOfUser, notBlockedBetween } from "@/lib/safety/blocks";
import { issueUnsubscribeToken, preferenceFor } from "./preferences";
import { notificationHref, type NotificationItem, type Pagination } from "./rules";
import type { ListQuery, MarkReadTarget } from "./schemas";

/** The user's notifications, without those from a couple blocked either way (a block hides both couples everywhere). */
const own = (userId: string | SQL) =>
  and(eq(notifications.userId, userId), notBlockedBetween(coupleOfUser(userId), notifications.actorCoupleId))!;
const unread = eq(notifications.isRead, false);

/**
 * The user's notifications, newest first (ties broken by id, so pages never overlap), with the
 * actor's picture and couple name joined in the same query: no query per row. Follows
 * notifications_user_created_idx.
 */
const newestOwn = (db: Db, userId: string | SQL) =>
  db
    .select({
      id: notifications.id,
      type: notifications.type,
      title: notifications.title,
      message: notifications.message,
      isRead: notifications.isRead,
      createdAt: notifications.createdAt,
      postId: notifications.postId,
      replyId: notifications.replyId,
      conversationId: notifications.conversationId,
      // The couple's picture stands for the couple; a partner's own avatar when it has none.
      actorImage: sql<string | null>`coalesce(${couples.profileImageUrl}, ${users.avatarUrl})`,
      actorCoupleName: couples.coupleName,
    })
    .from(notifications)
    .leftJoin(users, eq(users.id, notifications.actorUserId))
    .leftJoin(couples, eq(couples.id, notifications.actorCoupleId))
    .where(own(userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id));

function item(row: Awaited<ReturnType<typeof newestOwn>>[number]): NotificationItem {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    message: row.message,
    content_snippet: row.message,
    is_read: row.isRead,
    created_at: row.createdAt.toISOString(),
    post_id: row.postId,
    reply_id: row.replyId,
    conversation_id: row.conversationId,
    actor_profile_image_url: row.actorImage,
    actor_couple_name: row.actorCoupleName,
    triggered_by_couple_name: row.actorCoupleName,
  };
}

/** A page of the user's notifications with the total (the API's pagination); both follow notifications_user_created_idx. */
export async function listNotifications(
  db: Db,
  userId: string,
  query: ListQuery,
): Promise<{ data: NotificationItem[]; pagination: Pagination }> {
  const [rows, [totals]] = await Promise.all([
    newestOwn(db, userId).limit(query.limit).offset(query.offset),
    db.select({ total: count() }).from(notifications).where(own(userId)),
  ]);
  const total = totals?.total ?? 0;
  return {
    data: rows.map(item),
    pagination: { limit: query.limit, offset: query.offset, total, hasMore: query.offset + rows.length < total },
  };
}

const latest = preparedPer((db) =>
  newestOwn(db, sql`${sql.placeholder("userId")}`)
    .limit(sql.placeholder("limit"))
    .prepare("latest_notifications"),
);

/** The user's newest notifications without a total (the dashboard's card): one prepared statement. */
export async function latestNotifications(db: Db, userId: string, limit: number): Promise<NotificationItem[]> {
  return (await latest(db).execute({ userId, limit })).map(item);
}

/** The badge's number: one count over the partial index of unread rows, however many there are. */
export async function unreadCount(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ unread: count() })
    .from(notifications)
    .where(and(own(userId), unread));
  return row?.unread ?? 0;
}

/**
 * Marks the named notifications (or all) of the user read. Other users' ids and rows already
 * read are left alone and not counted; an empty list marks nothing.
 */
export async function markRead(db: Db, userId: string, target: MarkReadTarget): Promise<number> {
  if ("ids" in target && target.ids.length === 0) return 0;
  const chosen = "ids" in target ? and(own(userId), unread, inArray(notifications.id, target.ids)) : and(own(userId), unread);
  return transaction(db, async (tx) => {
    const marked = await tx
      .update(notifications)
      .set({ isRead: true, readAt: new Date() })
      .where(chosen)
      .returning({ id: notifications.id });
    // The bell of the person's other tabs and devices clears at once (README, Live updates).
    if (marked.length > 0) await publishLive(tx, [{ userId, kind: "notification" }]);
    return marked.length;
  });
}

export type NotificationType = (typeof notifications.$inferInsert)["type"];

export type NewNotification = {
  /** The recipient. */
  userId: string;
  type: NotificationType;
  title: string;
  message: string;
  postId?: string | null;
  replyId?: string | null;
  conversationId?: string | null;
  actorUserId?: string | null;
  actorCoupleId?: string | null;
};

/**
 * Sends a notification by e-mail (the recipient chose e-mail for its type), in the caller's
 * transaction through the outbox, with its own one-click unsubscribe link. Delivery happens after
 * the response (and so after the commit); without a provider the outbox keeps it.
 */
async function emailNotification(db: Db, notification: NewNotification): Promise<void> {
  const [recipient] = await db.select({ email: users.email }).from(users).where(eq(users.id, notification.userId));
  if (!recipient) return;
  const token = await issueUnsubscribeToken(db, notification.userId, notification.type);
  const href = notificationHref({
    type: notification.type,
    post_id: notification.postId ?? null,
    reply_id: notification.replyId ?? null,
    conversation_id: notification.conversationId ?? null,
  });
  const id = await enqueueEmail(
    db,
    notificationEmail(recipient.email, { type: notification.type, title: notification.title, message: notification.message, href }, token),
  );
  try {
    deliverAfterResponse(await getDb(), [id]);
  } catch (error) {
    // Outside a request (a script): the outbox keeps the e-mail for the next delivery.
    console.error("[notifications] e-mail delivery not scheduled", describeError(error));
  }
}

/**
 * Writes one notification in the caller's transaction, so it exists exactly when the change
 * that caused it does, as the recipient chose for its type (settings): in the app (null when
 * they turned that off; else their open streams are told) and by e-mail.
 */
export async function createNotification(db: Db, notification: NewNotification): Promise<string | null> {
  const choice = await preferenceFor(db, notification.userId, notification.type);
  let id: string | null = null;
  if (choice.inApp) {
    const [row] = await db.insert(notifications).values(notification).returning({ id: notifications.id });
    id = row!.id;
    await publishLive(db, [{ userId: notification.userId, kind: "notification", subjectId: id }]);
  }
  if (choice.email) await emailNotification(db, notification);
  return id;
}

/**
 * Writes or updates a grouped notification in the caller's transaction: at most one unread row
 * per user and `groupKey` (a reaction target and day, a conversation), so a hundred taps make one
 * row whose title names the latest actor and counts the others; it moves back to the top of the
 * list. Once read, the next event starts a new row. The recipient's choices apply: nothing in the
 * app when they turned it off, and one e-mail per group (when its row is new), not one per tap;
 * `inAppOnly` sends no e-mail whatever they chose (a message's e-mail is the live stream's delayed
 * one). Answers the row's id, or null when nothing was written in the app.
 */
export async function upsertGroupedNotification(
  db: Db,
  notification: NewNotification & { groupKey: string; actorCount: number },
  options: { inAppOnly?: boolean } = {},
): Promise<string | null> {
  const preference = await preferenceFor(db, notification.userId, notification.type);
  const choice = { inApp: preference.inApp, email: preference.email && !options.inAppOnly };
  if (!choice.inApp) {
    if (choice.email && notification.actorCount === 1) await emailNotification(db, notification);
    return null;
  }
  const [row] = await db
    .insert(notifications)
    .values(notification)
    .onConflictDoUpdate({
      target: [notifications.userId, notifications.groupKey],
      targetWhere: sql`${notifications.isRead} = false and ${notifications.groupKey} is not null`,
      set: {
        title: notification.title,
        message: notification.message,
        actorUserId: notification.actorUserId ?? null,
        actorCoupleId: notification.actorCoupleId ?? null,
        actorCount: notification.actorCount,
        createdAt: sql`now()`,
      },
    })
    // xmax is 0 on a row this statement inserted, not on one it updated.
    .returning({ id: notifications.id, inserted: sql<boolean>`(xmax = 0)` });
  if (row) await publishLive(db, [{ userId: notification.userId, kind: "notification", subjectId: row.id }]);
  if (choice.email && row?.inserted) await emailNotification(db, notification);
  return row?.id ?? null;
}

/** Marks the person's unread notification of a group read (a conversation read to its end), telling their bells as markRead does. */
export async function markGroupRead(db: Db, userId: string, groupKey: string): Promise<void> {
  const marked = await db
    .update(notifications)
    .set({ isRead: true, readAt: new Date() })
    .where(and(eq(notifications.userId, userId), eq(notifications.groupKey, groupKey), unread))
    .returning({ id: notifications.id });
  if (marked.length > 0) await publishLive(db, [{ userId, kind: "notification" }]);
}
