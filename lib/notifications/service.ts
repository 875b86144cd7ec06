import "server-only";
import { LIMITS, spendLimits } from "@/lib/rate-limit";
import { randomUUID } from "node:crypto";
import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { getDb, type Db } from "@/db/client";
import { transaction } from "@/db/transaction";
import { notifications, pushOutbox, users } from "@/db/schema";
import { addressProven } from "@/lib/auth/email-verification";
import { describeError } from "@/lib/log";
import { publishLive } from "@/lib/live/publish";
import { deliverAfterResponse, enqueueEmails, giveUpMail, QUOTE_GONE } from "@/lib/mail/outbox";
import { notificationEmail } from "@/lib/mail/templates";
import { issueUnsubscribeTokens, preferenceFor, preferencesFor } from "./preferences";
import { NOTIFICATION } from "./live";
import { deliverPushesAfterResponse, enqueuePushes } from "./push/outbox";
import { emailUnwanted, mutedAmong } from "./wanted";
import { own, unread } from "./queries";
import {
  CHANNELS,
  definitionOf,
  notificationHref,
  type Channel,
  type ChannelChoice,
  type NewNotification,
  type NotificationKind,
} from "./rules";
import type { MarkReadTarget } from "./schemas";

/**
 * Marks the named notifications (or all, up to `upTo` when given) of the user read. Other users'
 * ids and rows already read are left alone and not counted; an empty list marks nothing. Each
 * call that names any counts against LIMITS.notificationReadsPerUser.
 */
export async function markRead(db: Db, userId: string, target: MarkReadTarget): Promise<number> {
  if ("ids" in target && target.ids.length === 0) return 0;
  await spendLimits(db, [[LIMITS.notificationReadsPerUser, userId]]);
  const chosen =
    "ids" in target ? and(own(userId), unread, inArray(notifications.id, target.ids)) : and(own(userId), unread, shownBy(target.upTo));
  return transaction(db, async (tx) => {
    const marked = await tx
      .update(notifications)
      .set({ isRead: true, readAt: new Date() })
      .where(chosen)
      .returning({ id: notifications.id });
    // The bell of the person's other tabs and devices clears at once (README, Live updates).
    if (marked.length > 0) await publishLive(tx, [{ userId, kind: NOTIFICATION }]);
    return marked.length;
  });
}

/**
 * The notifications created at or before `upTo`, a created_at the list showed (in milliseconds,
 * as a Date carries it, of the database's microseconds); every one without it.
 */
const shownBy = (upTo: Date | undefined) =>
  upTo ? sql`date_trunc('milliseconds', ${notifications.createdAt}) <= ${upTo.toISOString()}::timestamptz` : undefined;

/**
 * Sends notifications by e-mail (each recipient chose e-mail for its type, or it is a service
 * e-mail) to the recipients whose address is proved (addressProven), in the caller's transaction
 * through the outbox, each with its own one-click unsubscribe link but a service e-mail (its
 * type's `serviceEmail`: nothing to unsubscribe from): the addresses, the links and the e-mails
 * are one statement each, however many there are. Delivery happens after the response (and so
 * after the commit); without a provider the outbox keeps them.
 */
async function emailNotifications(db: Db, list: readonly NewNotification[]): Promise<void> {
  if (list.length === 0) return;
  const recipients = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(inArray(users.id, [...new Set(list.map((notification) => notification.userId))]), addressProven(users)));
  const addressOf = new Map(recipients.map((recipient) => [recipient.id, recipient.email]));
  const sent = list.filter((notification) => addressOf.has(notification.userId));
  if (sent.length === 0) return;
  const unsubscribable = sent.filter((notification) => !definitionOf(notification.type).serviceEmail);
  const tokens = await issueUnsubscribeTokens(db, unsubscribable);
  const tokenOf = new Map(unsubscribable.map((notification, index) => [notification, tokens[index]!]));
  const ids = await enqueueEmails(
    db,
    sent.map((notification) => {
      const href = notificationHref({
        type: notification.type,
        post_id: notification.postId ?? null,
        reply_id: notification.replyId ?? null,
        conversation_id: notification.conversationId ?? null,
      });
      const { emailSubject } = definitionOf(notification.type);
      const content = { subject: emailSubject, title: notification.title, message: notification.message, href };
      const about = notification.actorUserId ? [notification.actorUserId] : [];
      return {
        ...notificationEmail(addressOf.get(notification.userId)!, content, tokenOf.get(notification) ?? null),
        recipientId: notification.userId,
        about,
        notice: { type: notification.type, conversationId: notification.conversationId ?? null, planId: notification.planId ?? null },
      };
    }),
  );
  try {
    deliverAfterResponse(await getDb(), ids, { unwanted: emailUnwanted() });
  } catch (error) {
    // Outside a request (a script): the outbox keeps the e-mails for the next delivery.
    console.error("[notifications] e-mail delivery not scheduled", describeError(error));
  }
}

/** The in-app row, new or (grouped) updated: its id, and whether this write created it. */
type InApp = { id: string; inserted: boolean } | null;

/** A notification as written: what it says, the recipient's choice for its type, and its in-app row. */
type Written = { notification: NewNotification & { actorCount?: number }; choice: ChannelChoice; inApp: InApp };

/**
 * How each channel (CHANNELS, the list the settings page shows) delivers the notifications that
 * chose it; a channel added to the list without a delivery here does not compile. In the app: the
 * row was written by the caller (grouped or not), and the person's open streams are told. By
 * e-mail: at once, one per group (when its row is new, or nothing was written in the app and it
 * stands alone), unless the type's e-mail waits for what is still unread (./types/message.ts). By
 * push: to each of the person's devices, after the commit (./push).
 */
const DELIVER: Record<Channel, (db: Db, written: readonly Written[]) => Promise<void>> = {
  async inApp(db, written) {
    await publishLive(
      db,
      written.flatMap(({ notification, inApp }) =>
        inApp ? [{ userId: notification.userId, kind: NOTIFICATION, subjectId: inApp.id }] : [],
      ),
    );
  },
  async email(db, written) {
    const atOnce = written.filter(
      ({ notification, inApp }) =>
        definitionOf(notification.type).emailWhen === "at-once" && (inApp ? inApp.inserted : (notification.actorCount ?? 1) === 1),
    );
    await emailNotifications(
      db,
      atOnce.map(({ notification }) => notification),
    );
  },
  async push(db, written) {
    const pushes = await enqueuePushes(
      db,
      written.map(({ notification, inApp }) => ({ notice: notification, notificationId: inApp?.id ?? null })),
    );
    if (pushes === 0) return;
    try {
      deliverPushesAfterResponse(await getDb());
    } catch (error) {
      console.error("[notifications] push delivery not scheduled", describeError(error));
    }
  },
};

/** Delivers each notification by every channel its recipient chose for its type. */
async function deliver(db: Db, written: readonly Written[]) {
  for (const { key } of CHANNELS) {
    const chosen = written.filter(({ choice }) => choice[key]);
    if (chosen.length > 0) await DELIVER[key](db, chosen);
  }
}

/** The choice of a notice sent by no channel. */
const NOWHERE: ChannelChoice = { inApp: false, email: false, push: false };

/**
 * Writes notifications in the caller's transaction, so they exist exactly when the change that
 * caused them does, each as its recipient chose for its type (settings): in the app (null when
 * they turned that off; else their open streams are told), by e-mail and by push. Each step is
 * one statement for the whole list (the choices, the rows, the e-mails; the devices and the
 * pushes), so telling many people at once (the plans' reminders) costs a few statements, not a few
 * per person; the caller bounds the list (a run claims at most PLANS_PER_RUN plans). Answers each
 * notification's in-app row id, in the order given.
 */
export async function createNotifications(db: Db, list: readonly NewNotification[]): Promise<(string | null)[]> {
  const choices = await preferencesFor(db, list);
  // A muted conversation notifies no one who muted it, by no channel (./wanted.ts).
  const muted = await mutedAmong(db, list);
  const written: Written[] = list.map((notification, index) => {
    const choice = muted[index] ? NOWHERE : choices[index]!;
    return { notification, choice, inApp: choice.inApp ? { id: randomUUID(), inserted: true } : null };
  });
  const rows = written.flatMap(({ notification, inApp }) => (inApp ? [{ ...notification, id: inApp.id }] : []));
  if (rows.length > 0) await db.insert(notifications).values(rows);
  await deliver(db, written);
  return written.map(({ inApp }) => inApp?.id ?? null);
}

/** Writes one notification (createNotifications): its in-app row id, or null. */
export async function createNotification(db: Db, notification: NewNotification): Promise<string | null> {
  const [id] = await createNotifications(db, [notification]);
  return id ?? null;
}

type Grouped = NewNotification & { groupKey: string; actorCount: number };

/** What a grouped row says now: the latest actor, the count of the others, at the top of the list. */
const groupedText = (notification: Grouped) => ({
  title: notification.title,
  message: notification.message,
  actorUserId: notification.actorUserId ?? null,
  actorCoupleId: notification.actorCoupleId ?? null,
  actorCount: notification.actorCount,
  createdAt: sql`now()`,
});

/**
 * The group's newest row made unread again with the new text, when it was read (a type that
 * `reopensReadRow`); null when there is none or it is still unread (the upsert takes it then).
 * Two writers at once: the second waits for the first's row lock, finds it unread, and upserts.
 */
async function reopenReadRow(db: Db, notification: Grouped): Promise<InApp> {
  const newest = db
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.userId, notification.userId), eq(notifications.groupKey, notification.groupKey)))
    .orderBy(desc(notifications.createdAt))
    .limit(1);
  const [row] = await db
    .update(notifications)
    .set({ ...groupedText(notification), isRead: false, readAt: null })
    .where(and(eq(notifications.id, sql`(${newest})`), eq(notifications.isRead, true)))
    .returning({ id: notifications.id });
  return row ? { id: row.id, inserted: false } : null;
}

/**
 * Writes or updates a grouped notification in the caller's transaction: at most one unread row
 * per user and `groupKey` (a reaction target and day, a conversation: the type's `groups`), so a
 * hundred taps make one row whose title names the latest actor and counts the others; it moves
 * back to the top of the list. Once read, the next event starts a new row, or, for a type that
 * `reopensReadRow` (a conversation), makes the read row unread again. The recipient's choices
 * apply: nothing in the app when they turned it off, and one e-mail per group (when its row is
 * new), not one per tap. Answers the row's id, or null when nothing was written in the app.
 */
export async function upsertGroupedNotification(db: Db, notification: Grouped): Promise<string | null> {
  const choice = await preferenceFor(db, notification.userId, notification.type);
  let inApp: InApp = null;
  if (choice.inApp && definitionOf(notification.type).reopensReadRow) inApp = await reopenReadRow(db, notification);
  if (choice.inApp && !inApp) {
    const [row] = await db
      .insert(notifications)
      .values(notification)
      .onConflictDoUpdate({
        target: [notifications.userId, notifications.groupKey],
        targetWhere: sql`${notifications.isRead} = false and ${notifications.groupKey} is not null`,
        set: groupedText(notification),
      })
      // xmax is 0 on a row this statement inserted, not on one it updated.
      .returning({ id: notifications.id, inserted: sql<boolean>`(xmax = 0)` });
    inApp = row ?? null;
  }
  await deliver(db, [{ notification, choice, inApp }]);
  return inApp?.id ?? null;
}

/**
 * Locks the person's rows of a group until the caller's transaction ends: taken before deciding
 * whether the group is read (a conversation's unread count, then markGroupRead), so a writer that
 * refreshed a row and has not committed (a message's notice) commits first and what is read next
 * sees what it told of; a writer coming after waits for this commit and makes the row unread again.
 */
export async function lockGroup(db: Db, userId: string, groupKey: string): Promise<void> {
  await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.groupKey, groupKey)))
    .for("update");
}

/** Marks the person's unread notification of a group read (a conversation read to its end), telling their bells as markRead does. */
export async function markGroupRead(db: Db, userId: string, groupKey: string): Promise<void> {
  const marked = await db
    .update(notifications)
    .set({ isRead: true, readAt: new Date() })
    .where(and(eq(notifications.userId, userId), eq(notifications.groupKey, groupKey), unread))
    .returning({ id: notifications.id });
  if (marked.length > 0) await publishLive(db, [{ userId, kind: NOTIFICATION }]);
}

/**
 * Marks read the people's unread notifications of one type from one couple (a hello once it is
 * answered: it no longer waits for them), telling their bells as markRead does.
 */
export async function markReadFrom(db: Db, userIds: readonly string[], type: NotificationKind, actorCoupleId: string): Promise<void> {
  if (userIds.length === 0) return;
  await markReadWhere(
    db,
    and(inArray(notifications.userId, [...userIds]), eq(notifications.type, type), eq(notifications.actorCoupleId, actorCoupleId))!,
  );
}

/** Marks read the unread notifications `where` picks, telling their recipients' bells; answers how many. */
export async function markReadWhere(db: Db, where: SQL): Promise<number> {
  const marked = await db
    .update(notifications)
    .set({ isRead: true, readAt: new Date() })
    .where(and(where, unread))
    .returning({ userId: notifications.userId });
  await tellBells(db, marked);
  return marked.length;
}

/** Tells the bells of the people whose notifications changed, once each, as markRead does. */
async function tellBells(db: Db, rows: readonly { userId: string }[]): Promise<void> {
  const told = [...new Set(rows.map((row) => row.userId))];
  await publishLive(
    db,
    told.map((userId) => ({ userId, kind: NOTIFICATION })),
  );
}

/** What else holds a notification's words while it waits to leave: the pushes and the e-mails that quote them. */
export type WaitingCopies = { pushes: SQL; mail: SQL };

/**
 * Deletes the notifications `where` picks, because what they quote or name is gone (a forum post
 * or reply deleted or removed leaves no copy behind; a released partner), and recounts their
 * recipients' bells.
 */
export async function withdrawNotifications(db: Db, where: SQL, waiting?: WaitingCopies): Promise<void> {
  // A waiting push or e-mail (a try again after a failure) holds the same words, even with no in-app row (turned off).
  if (waiting) {
    await db.delete(pushOutbox).where(waiting.pushes);
    await giveUpMail(db, waiting.mail, QUOTE_GONE);
  }
  await tellBells(db, await db.delete(notifications).where(where).returning({ userId: notifications.userId }));
}

/**
 * Gives the notifications `where` picks, and the waiting pushes, the words they quote as they now
 * stand (an edit), telling their recipients' bells. A waiting e-mail, its words rendered, is given
 * up: the edit may take back what it said.
 */
export async function rewordNotifications(db: Db, where: SQL, message: string, waiting?: WaitingCopies): Promise<void> {
  if (waiting) {
    await db.update(pushOutbox).set({ body: message }).where(waiting.pushes);
    await giveUpMail(db, waiting.mail, QUOTE_GONE);
  }
  await tellBells(db, await db.update(notifications).set({ message }).where(where).returning({ userId: notifications.userId }));
}
