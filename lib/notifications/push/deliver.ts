import "server-only";
import { and, count, desc, eq, inArray, isNotNull, isNull, not, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { conversationReads, couples, messages, notifications, pushOutbox, pushSettings, pushSubscriptions, users } from "@/db/schema";
import { env } from "@/lib/env";
import { UNREAD_COUNT_CAP } from "@/lib/messages/rules";
import { firstLine } from "@/lib/plain-text";
import { coupleOfUser } from "@/lib/safety/blocks";
import { standTogether } from "@/lib/safety/visibility";
import { own, unread } from "../queries";
import { badgeText, definitionOf, isNotificationKind } from "../rules";
import { unwanted } from "../wanted";
import { vapidKeys, type VapidKeys } from "./config";
import { endpointFormAllowed } from "./endpoint";
import { liveSubscription, lostClaim, waiting } from "./rows";
import { webPushTransport, type PushTransport } from "./transport";

/** How long a push service keeps a push for a device that is off: a day (then it is old news). */
export const PUSH_TTL_S = 24 * 60 * 60;
/** Tries of one push when the push service is busy or failing (429, 5xx, no answer within transport.ts's PUSH_DEADLINE_MS). */
export const MAX_ATTEMPTS = 5;
/** The first retry's wait; each next one doubles (or what the service's Retry-After asks, up to an hour). */
const RETRY_BASE_S = 30;
const RETRY_MAX_S = 3600;
/** Pushes claimed at a time; a run claims again until none is due or its time is spent. */
const PER_BATCH = 100;
/** Pushes in flight at once (a fan-out to many devices does not wait for each in turn). */
const PARALLEL = 8;
/** How long one run goes on claiming: the next run (or the next commit) takes the rest. */
const RUN_BUDGET_MS = 20_000;
/**
 * The answers that end a subscription: 404/410, the push service forgot it; 401/403, it was made
 * under another VAPID key (ours was changed) and will take none of ours; and keys no push can be
 * encrypted to (the transport's `keysUnusable`). Removed, the device reads 'off' in its settings,
 * and turning it on subscribes again under our key (client.ts).
 */
const SUBSCRIPTION_ENDED = new Set([401, 403, 404, 410]);
/** How long a message preview may be. */
const PREVIEW_MAX = 120;

export type PushReport = { sent: number; removed: number; retried: number; dropped: number };

type Claimed = typeof pushOutbox.$inferSelect;

/** Claims the due pushes in one committed statement (others skip the locked rows): each is sent by one sender only. */
async function claim(db: Db, now: Date, limit: number): Promise<Claimed[]> {
  const due = db
    .select({ id: pushOutbox.id })
    .from(pushOutbox)
    .where(waiting(now))
    .orderBy(pushOutbox.dueAt)
    .limit(limit)
    .for("update", { skipLocked: true });
  return db
    .update(pushOutbox)
    .set({ claimedAt: now, attempts: sql`${pushOutbox.attempts} + 1` })
    .where(inArray(pushOutbox.id, due))
    .returning();
}

/** Housekeeping first: subscriptions of ended sessions (signed out on that device) and claims of senders that stopped. */
async function tidy(db: Db, now: Date): Promise<number> {
  const ended = await db
    .delete(pushSubscriptions)
    .where(and(isNotNull(pushSubscriptions.sessionId), sql`not (${liveSubscription()})`))
    .returning({ id: pushSubscriptions.id });
  await db.delete(pushOutbox).where(and(isNotNull(pushOutbox.claimedAt), lostClaim(now)));
  return ended.length;
}

/**
 * What the device shows: the newest text, or the collapsed count, a preview when the person chose
 * it, the unread count for the badge. (A conversation's push with nothing left unread never gets
 * here: ../wanted.ts `unwanted` drops it, the rule the e-mail outbox applies too.)
 */
async function payloadOf(db: Db, push: Claimed, userId: string, showPreviews: boolean, unreadCount: number): Promise<string> {
  const definition = isNotificationKind(push.type) ? definitionOf(push.type) : null;
  let body = push.body;
  if (definition?.pushCollapsed && push.conversationId && push.actorCoupleId) {
    const fromThem = and(
      eq(messages.conversationId, push.conversationId),
      eq(messages.authorCoupleId, push.actorCoupleId),
      isNull(messages.deletedAt),
      sql`${messages.seq} > coalesce((select ${conversationReads.lastReadSeq} from ${conversationReads} where ${conversationReads.userId} = ${userId} and ${conversationReads.conversationId} = ${push.conversationId}), 0)`,
    );
    const [[waitingCount], [couple], [latest]] = await Promise.all([
      // Counted as the unread badges count (lib/messages/rules.ts UNREAD_COUNT_CAP), never a whole backlog.
      db.select({ n: count() }).from(
        db
          .select({ one: sql`1` })
          .from(messages)
          .where(fromThem)
          .limit(UNREAD_COUNT_CAP)
          .as("waiting"),
      ),
      db.select({ name: couples.coupleName }).from(couples).where(eq(couples.id, push.actorCoupleId)),
      showPreviews
        ? db
            .select({ body: messages.body, firstName: users.firstName })
            .from(messages)
            .leftJoin(users, eq(users.id, messages.authorUserId))
            .where(fromThem)
            .orderBy(desc(messages.seq))
            .limit(1)
        : Promise.resolve([]),
    ]);
    const many = (waitingCount?.n ?? 0) > 1;
    if (many && couple) body = definition.pushCollapsed(badgeText(waitingCount!.n), couple.name);
    if (latest?.body) {
      const preview = firstLine(latest.body, PREVIEW_MAX);
      body = many ? `${body}\n${latest.firstName ?? "A partner"}: ${preview}` : `${latest.firstName ?? "A partner"}: ${preview}`;
    }
  }
  // Previews off: a plan's details or someone's words never reach a lock screen (the setting's promise).
  const hidden = !showPreviews && definition?.pushShowsWords;
  return JSON.stringify({
    title: hidden ? definition.emailSubject : push.title,
    body: hidden ? "" : body,
    url: push.url,
    tag: push.topic ? `conversation:${push.conversationId}` : `${push.type}:${push.id}`,
    conversationId: push.conversationId,
    unread: unreadCount,
  });
}

const backoffS = (attempts: number, asked: number | undefined) => Math.min(RETRY_MAX_S, asked ?? RETRY_BASE_S * 2 ** (attempts - 1));

/** A push the service could not take now: due again later, unless tries are spent or a newer one for its topic is waiting. */
async function retryLater(db: Db, push: Claimed, now: Date, asked: number | undefined): Promise<"retried" | "dropped"> {
  if (push.attempts < MAX_ATTEMPTS) {
    try {
      await db
        .update(pushOutbox)
        .set({ claimedAt: null, dueAt: new Date(now.getTime() + backoffS(push.attempts, asked) * 1000) })
        .where(eq(pushOutbox.id, push.id));
      return "retried";
    } catch {
      // A newer push for the same conversation is waiting (the unique topic index): it supersedes this one.
    }
  }
  await db.delete(pushOutbox).where(eq(pushOutbox.id, push.id));
  return "dropped";
}

/**
 * Sends the pushes that are due (run after a commit that wrote some, and by the due work every
 * minute for the retries): each claimed first, so two instances never send one twice; none for a
 * notification already read (its conversation open on a screen); 2xx: done, and the device's
 * 'last delivered' moves; 404/410 (gone), 401/403 (another VAPID key) and keys no push can be
 * encrypted to: the subscription is removed, as is one whose endpoint today's rule refuses
 * (endpointFormAllowed, never called); 429/5xx or no answer: again later with backoff, at
 * most MAX_ATTEMPTS tries; anything else: dropped. A device whose session ended (signed out) gets nothing; `tidy` (the due work's
 * minute run, not every commit's) removes those devices and the claims of senders that stopped.
 */
export async function deliverDuePushes(
  db: Db,
  {
    now = new Date(),
    transport = webPushTransport(),
    vapid = vapidKeys(),
    limit = PER_BATCH,
    tidy: tidyFirst = false,
    allowLocalEndpoints = env().PUSH_ALLOW_LOCAL_ENDPOINTS,
  } = {},
): Promise<PushReport> {
  const report: PushReport = { sent: 0, removed: 0, retried: 0, dropped: 0 };
  if (!vapid) return report;
  if (tidyFirst) report.removed += await tidy(db, now);
  const started = Date.now();
  while (Date.now() - started < RUN_BUDGET_MS) {
    const claimed = await claim(db, now, limit);
    if (claimed.length === 0) break;
    await sendBatch(db, claimed, { now, transport, vapid, allowLocalEndpoints }, report);
    if (claimed.length < limit) break;
  }
  return report;
}

/**
 * Whether a claimed push is still to send, read as it leaves (a batch's sends take their turns,
 * each up to PUSH_DEADLINE_MS: a block made meanwhile erases its pushes, ../moderation.ts): still
 * there, its notification not read (its conversation open on a screen), and its person still
 * wanting it from a couple that stands with theirs. A couple that no longer does (standTogether: a
 * block either way or a suspension since it was queued) reaches them no more, as its e-mail is
 * withheld (coupleApartAmong); their own couple's still go. Nor does a push its person stopped
 * wanting since (../wanted.ts: push turned off for its type, or its conversation muted or read,
 * even with no in-app row to read), the rule the e-mail outbox applies too.
 */
async function stillToSend(db: Db, pushId: string): Promise<boolean> {
  const recipientCouple = coupleOfUser(sql`${pushSubscriptions.userId}`);
  const fromApart = and(
    isNotNull(pushOutbox.actorCoupleId),
    sql`${pushOutbox.actorCoupleId} is distinct from ${recipientCouple}`,
    not(standTogether(recipientCouple, pushOutbox.actorCoupleId)),
  )!;
  const stoppedWanting = unwanted("push", {
    userId: pushSubscriptions.userId,
    type: pushOutbox.type,
    conversationId: pushOutbox.conversationId,
  });
  const read = sql`exists (select 1 from ${notifications} where ${notifications.id} = ${pushOutbox.notificationId} and ${notifications.isRead})`;
  const [row] = await db
    .select({ id: pushOutbox.id })
    .from(pushOutbox)
    .innerJoin(pushSubscriptions, eq(pushSubscriptions.id, pushOutbox.subscriptionId))
    .where(and(eq(pushOutbox.id, pushId), not(or(fromApart, stoppedWanting, read)!)));
  return Boolean(row);
}

/** Sends claimed pushes, PARALLEL at a time, and records each answer's outcome. */
async function sendBatch(
  db: Db,
  claimed: Claimed[],
  { now, transport, vapid, allowLocalEndpoints }: { now: Date; transport: PushTransport; vapid: VapidKeys; allowLocalEndpoints: boolean },
  report: PushReport,
) {
  const targets = await db
    .select({
      id: pushSubscriptions.id,
      userId: pushSubscriptions.userId,
      endpoint: pushSubscriptions.endpoint,
      p256dh: pushSubscriptions.p256dh,
      auth: pushSubscriptions.auth,
      showPreviews: sql<boolean>`coalesce(${pushSettings.showPreviews}, false)`,
    })
    .from(pushSubscriptions)
    .leftJoin(pushSettings, eq(pushSettings.userId, pushSubscriptions.userId))
    .where(and(inArray(pushSubscriptions.id, [...new Set(claimed.map((push) => push.subscriptionId))]), liveSubscription()));
  const byId = new Map(targets.map((target) => [target.id, target]));
  // The badge's count per person, once per batch, by the bell's rule (`own`: none from a couple
  // that no longer stands with theirs, each row judged for its own person), so the icon and the bell say the same.
  const userIds = [...new Set(targets.map((target) => target.userId))];
  const badges = new Map(
    userIds.length === 0
      ? []
      : (
          await db
            .select({ userId: notifications.userId, n: count() })
            .from(notifications)
            .where(and(inArray(notifications.userId, userIds), own(sql`${notifications.userId}`), unread))
            .groupBy(notifications.userId)
        ).map((row) => [row.userId, row.n]),
  );
  const sent: { push: string; subscription: string }[] = [];
  const queue = [...claimed];
  const drop = async (push: Claimed) => {
    await db.delete(pushOutbox).where(eq(pushOutbox.id, push.id));
    report.dropped++;
  };
  /** The device's subscription ends (its pushes go with it: the foreign key's cascade). */
  const remove = async (target: { id: string }) => {
    await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, target.id));
    byId.delete(target.id);
    report.removed++;
  };
  const sendOne = async (push: Claimed) => {
    const target = byId.get(push.subscriptionId);
    if (!target) return drop(push);
    // Stored under an older, looser rule (another port): never called, today's rule would refuse it.
    if (!endpointFormAllowed(target.endpoint, allowLocalEndpoints)) return remove(target);
    if (!(await stillToSend(db, push.id))) return drop(push);
    const payload = await payloadOf(db, push, target.userId, target.showPreviews, badges.get(target.userId) ?? 0);
    const answer = await transport({
      subscription: { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
      payload,
      options: { TTL: PUSH_TTL_S, urgency: push.urgency, ...(push.topic ? { topic: push.topic } : {}) },
      vapid,
    });
    if (answer.status >= 200 && answer.status < 300) {
      sent.push({ push: push.id, subscription: target.id });
      report.sent++;
    } else if (SUBSCRIPTION_ENDED.has(answer.status) || answer.keysUnusable) {
      await remove(target);
    } else if (answer.status === 0 || answer.status === 429 || answer.status >= 500) {
      report[await retryLater(db, push, now, answer.retryAfterS)]++;
    } else {
      console.error("[push] refused by the push service", { status: answer.status });
      await drop(push);
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL, queue.length) }, async () => {
      for (let push = queue.shift(); push; push = queue.shift()) await sendOne(push);
    }),
  );
  // Done in two statements for the batch (a sender that stops before them leaves claims that are dropped, never resent).
  if (sent.length === 0) return;
  await db.delete(pushOutbox).where(
    inArray(
      pushOutbox.id,
      sent.map((one) => one.push),
    ),
  );
  await db
    .update(pushSubscriptions)
    .set({ lastDeliveredAt: new Date() })
    .where(inArray(pushSubscriptions.id, [...new Set(sent.map((one) => one.subscription))]));
}
