import "server-only";
import { and, eq, inArray, isNotNull, isNull, ne, not, or, sql, type SQL } from "drizzle-orm";
import { batches } from "@/db/batches";
import type { Db } from "@/db/client";
import { couples, pushOutbox, pushSubscriptions } from "@/db/schema";
import { afterResponse } from "@/lib/http/after-response";
import { definitionOf, notificationHref, type NewNotification } from "../rules";
import { vapidKeys } from "./config";
import { liveSubscription } from "./rows";

/** RFC 8030 Topic of a collapsing type's push: the conversation's id, 32 base64url-safe characters. */
export const conversationTopic = (conversationId: string) => conversationId.replaceAll("-", "");

/** Pushes a statement writes: each binds 12 values, so 2,000 stay far under Postgres's 65,535. */
export const PUSH_ROWS_PER_INSERT = 2000;

/** What a later push of the same device and conversation replaces in a waiting one (the update's `set` below). */
const latestOf = ({ title, body, notificationId, actorCoupleId, actorUserId }: ReturnType<typeof pushOf>) => ({
  title,
  body,
  notificationId,
  actorCoupleId,
  actorUserId,
});

/** A notice to push, with the in-app row it opens (null when the person turned the app's off). */
export type QueuedPush = { notice: NewNotification; notificationId: string | null };

/** The push of one notice, as every device of its person gets it. Messages are urgent, the rest normal. */
function pushOf({ notice, notificationId }: QueuedPush) {
  const definition = definitionOf(notice.type);
  return {
    notificationId,
    type: notice.type,
    topic: definition.pushCollapsed && notice.conversationId ? conversationTopic(notice.conversationId) : null,
    conversationId: notice.conversationId ?? null,
    planId: notice.planId ?? null,
    actorCoupleId: notice.actorCoupleId ?? null,
    actorUserId: notice.actorUserId ?? null,
    title: notice.title,
    body: notice.message,
    url: notificationHref({
      type: notice.type,
      post_id: notice.postId ?? null,
      reply_id: notice.replyId ?? null,
      conversation_id: notice.conversationId ?? null,
    }),
    urgency: notice.type === "message" ? ("high" as const) : ("normal" as const),
  };
}

/**
 * Writes, in the caller's transaction, one push per device of each notice's person (none while
 * push is off), in a few statements for the whole list: one read of the people's devices, and an
 * insert per PUSH_ROWS_PER_INSERT pushes (Postgres binds at most 65,535 values a statement). A
 * type that collapses per conversation updates the device's push still waiting for that
 * conversation (`count` more) instead of adding one; within the list, its notices for one device
 * and conversation are one row already, as the update would leave it: the first's, with the
 * latest's words and their count (a statement may not update a row twice). Answers how many
 * pushes it wrote or updated.
 */
export async function enqueuePushes(db: Db, list: readonly QueuedPush[]): Promise<number> {
  if (!vapidKeys() || list.length === 0) return 0;
  const people = [...new Set(list.map(({ notice }) => notice.userId))];
  const devices = await db
    .select({ id: pushSubscriptions.id, userId: pushSubscriptions.userId })
    .from(pushSubscriptions)
    .where(and(inArray(pushSubscriptions.userId, people), liveSubscription()));
  if (devices.length === 0) return 0;
  const devicesOf = Map.groupBy(devices, (device) => device.userId);
  type Row = ReturnType<typeof pushOf> & { subscriptionId: string; count: number };
  const single: Row[] = [];
  const collapsed = new Map<string, Row>();
  for (const queued of list) {
    const push = pushOf(queued);
    for (const device of devicesOf.get(queued.notice.userId) ?? []) {
      if (!push.topic) single.push({ ...push, subscriptionId: device.id, count: 1 });
      else {
        const key = `${device.id} ${push.topic}`;
        const earlier = collapsed.get(key);
        if (!earlier) collapsed.set(key, { ...push, subscriptionId: device.id, count: 1 });
        else Object.assign(earlier, latestOf(push), { count: earlier.count + 1 });
      }
    }
  }
  const rows = [...single, ...collapsed.values()];
  let written = 0;
  for (const batch of batches(rows, PUSH_ROWS_PER_INSERT)) {
    const inserted = await db
      .insert(pushOutbox)
      .values(batch)
      .onConflictDoUpdate({
        target: [pushOutbox.subscriptionId, pushOutbox.topic],
        targetWhere: sql`${pushOutbox.claimedAt} is null and ${pushOutbox.topic} is not null`,
        set: {
          count: sql`${pushOutbox.count} + excluded.count`,
          title: sql`excluded.title`,
          body: sql`excluded.body`,
          notificationId: sql`excluded.notification_id`,
          actorCoupleId: sql`excluded.actor_couple_id`,
          actorUserId: sql`excluded.actor_user_id`,
        },
      })
      .returning({ id: pushOutbox.id });
    written += inserted.length;
  }
  return written;
}

/**
 * Sends the waiting pushes after the response (so after the commit of what they tell about),
 * off the request's path like the e-mails; outside a request (a script), the due work sends them.
 */
export function deliverPushesAfterResponse(db: Db): void {
  if (!vapidKeys()) return;
  // Not in a request: lib/scheduled sends them within the minute.
  afterResponse(async () => {
    const { deliverDuePushes } = await import("./deliver");
    await deliverDuePushes(db);
  });
}

/** The push subscriptions of a couple's partners, as a subquery. */
const subscriptionsOf = (db: Db, coupleId: string) =>
  db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .innerJoin(couples, or(eq(couples.partner1Id, pushSubscriptions.userId), eq(couples.partner2Id, pushSubscriptions.userId)))
    .where(eq(couples.id, coupleId));

/**
 * The pushes still waiting between two couples, either way: each one's to the other's partners.
 * A block erases them in its transaction (lib/notifications/moderation.ts), as the bell stops
 * listing what one couple's actions told the other (`own`) and the send would drop them
 * (deliver.ts), so their words do not sit in the outbox until a send run comes. Found by
 * push_outbox_actor_couple_idx.
 */
export function pushesBetween(db: Db, one: string, other: string): SQL {
  const fromTo = (from: string, to: string) =>
    and(eq(pushOutbox.actorCoupleId, from), inArray(pushOutbox.subscriptionId, subscriptionsOf(db, to)));
  return or(fromTo(one, other), fromTo(other, one))!;
}

/**
 * The pushes still waiting to these people's devices that tell of these conversations and that no
 * one acted on (a plan's reminder, 'How was it?': no actor couple) tell of the other couple all
 * the same, so a block or a suspension erases them with those `pushesBetween` and
 * `pushesWithOthers` find by their actor. Found by the devices' indexes.
 */
export function pushesOfConversations(db: Db, people: readonly string[], conversationIds: readonly string[]): SQL {
  if (people.length === 0 || conversationIds.length === 0) return sql`false`;
  const devices = db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(inArray(pushSubscriptions.userId, [...people]));
  return and(
    sql`${pushOutbox.subscriptionId} = any(array(${devices}))`,
    inArray(pushOutbox.conversationId, [...conversationIds]),
    isNull(pushOutbox.actorCoupleId),
  )!;
}

/**
 * The pushes still waiting between a couple and every other couple, each way its own condition (a
 * delete each, so each finds its rows by its index: the actor couple's, the devices'): a
 * suspension erases them as a block erases those between two couples (`pushesBetween`). Its own
 * couple's and the moderators' words (no acting couple) stay.
 */
export function pushesWithOthers(db: Db, coupleId: string): { fromCouple: SQL; toCouple: SQL } {
  const toOwn = inArray(pushOutbox.subscriptionId, subscriptionsOf(db, coupleId));
  return {
    fromCouple: and(eq(pushOutbox.actorCoupleId, coupleId), not(toOwn))!,
    toCouple: and(toOwn, isNotNull(pushOutbox.actorCoupleId), ne(pushOutbox.actorCoupleId, coupleId))!,
  };
}
