import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { after } from "next/server";
import type { Db } from "@/db/client";
import { pushOutbox, pushSubscriptions } from "@/db/schema";
import { definitionOf, notificationHref, type NewNotification } from "../rules";
import { vapidKeys } from "./config";
import { liveSubscription } from "./rows";

/** What a notification tells a person's devices: all of it but who acted. */
export type PushNotice = Omit<NewNotification, "actorUserId">;

/** RFC 8030 Topic of a collapsing type's push: the conversation's id, 32 base64url-safe characters. */
export const conversationTopic = (conversationId: string) => conversationId.replaceAll("-", "");

/**
 * Writes, in the caller's transaction, one push per device of the person (none while push is
 * off): a type that collapses per conversation updates the device's push still waiting for that
 * conversation (one more in `count`) instead of adding one. Messages are urgent, the rest normal.
 * Answers how many devices it was written for.
 */
export async function enqueuePush(db: Db, notice: PushNotice, notificationId: string | null): Promise<number> {
  if (!vapidKeys()) return 0;
  const definition = definitionOf(notice.type);
  const topic = definition.pushCollapsed && notice.conversationId ? conversationTopic(notice.conversationId) : null;
  const url = notificationHref({
    type: notice.type,
    post_id: notice.postId ?? null,
    reply_id: notice.replyId ?? null,
    conversation_id: notice.conversationId ?? null,
  });
  const devices = await db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, notice.userId), liveSubscription()));
  if (devices.length === 0) return 0;
  const push = {
    notificationId,
    type: notice.type,
    topic,
    conversationId: notice.conversationId ?? null,
    actorCoupleId: notice.actorCoupleId ?? null,
    title: notice.title,
    body: notice.message,
    url,
    urgency: notice.type === "message" ? ("high" as const) : ("normal" as const),
  };
  const written = await db
    .insert(pushOutbox)
    .values(devices.map((device) => ({ ...push, subscriptionId: device.id })))
    .onConflictDoUpdate({
      target: [pushOutbox.subscriptionId, pushOutbox.topic],
      targetWhere: sql`${pushOutbox.claimedAt} is null and ${pushOutbox.topic} is not null`,
      set: {
        count: sql`${pushOutbox.count} + 1`,
        title: sql`excluded.title`,
        body: sql`excluded.body`,
        notificationId: sql`excluded.notification_id`,
        actorCoupleId: sql`excluded.actor_couple_id`,
      },
    })
    .returning({ id: pushOutbox.id });
  return written.length;
}

/**
 * Sends the waiting pushes after the response (so after the commit of what they tell about),
 * off the request's path like the e-mails; outside a request (a script), the due work sends them.
 */
export function deliverPushesAfterResponse(db: Db): void {
  if (!vapidKeys()) return;
  try {
    after(async () => {
      const { deliverDuePushes } = await import("./deliver");
      await deliverDuePushes(db);
    });
  } catch {
    // Not in a request: lib/scheduled sends them within the minute.
  }
}
