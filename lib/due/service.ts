import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { transaction } from "@/db/transaction";
import { liveEvents, messageEmails } from "@/db/schema";
import { env } from "@/lib/env";
import { deliverEmails, enqueueEmail } from "@/lib/mail/outbox";
import { notificationEmail } from "@/lib/mail/templates";
import { issueUnsubscribeToken } from "@/lib/notifications/preferences";
import { notificationHref } from "@/lib/notifications/rules";
import { otherCouple, quotedMessages, unreadDue, type UnreadDue } from "./queries";

/**
 * Work that falls due with time rather than with a request: the e-mail about messages left
 * unread, and trimming the live history. Serverless instances have no timers, so it runs from
 * `POST /api/cron/due` (a platform cron), from `server.ts` every minute in process, and when the
 * dev outbox is opened; every run is safe to repeat and to overlap.
 */

/** The transaction-scoped advisory lock a run holds (the migrations' is 724301): overlapping runs take turns. */
const DUE_WORK_LOCK = 724302;

/** How long live rows are kept: a stream resumed after longer is told to `reset`. */
export const LIVE_HISTORY_DAYS = 7;

/** Rows trimmed per run at most, so one run stays short; the next run goes on. */
const PRUNE_PER_RUN = 10_000;

/** How long a quoted line may be in the e-mail. */
const QUOTE_MAX = 140;

export type DueReport = { emailed: number; pruned: number };

const firstLine = (body: string) => {
  const line = body
    .slice(0, QUOTE_MAX + 1)
    .split("\n")[0]!
    .trim();
  return line.length > QUOTE_MAX ? `${line.slice(0, QUOTE_MAX - 1)}…` : line;
};

/**
 * One person's e-mail about one conversation: 'New messages from Ana & Rui' (or, when only their
 * own partner wrote, 'New messages in your conversation with Ana & Rui'), the first lines, a
 * link to the thread, the one-click unsubscribe headers.
 */
async function emailUnread(db: Db, due: UnreadDue, now: Date): Promise<string> {
  const [other, quoted] = await Promise.all([otherCouple(db, due.conversationId, due.userId), quotedMessages(db, due)]);
  const lines = quoted.map((message) => `${message.firstName ?? "A partner"}: ${message.body ? firstLine(message.body) : "sent a photo"}`);
  const name = other?.name ?? "a couple";
  const fromThem = quoted.some((message) => message.coupleId === other?.id);
  const title = fromThem ? `New messages from ${name}` : `New messages in your conversation with ${name}`;
  const token = await issueUnsubscribeToken(db, due.userId, "message");
  const href = notificationHref({ type: "message", post_id: null, reply_id: null, conversation_id: due.conversationId });
  const id = await enqueueEmail(db, notificationEmail(due.email, { type: "message", title, message: lines.join("\n"), href }, token));
  await db
    .insert(messageEmails)
    .values({ userId: due.userId, conversationId: due.conversationId, sentAt: now, upToSeq: due.upToSeq })
    .onConflictDoUpdate({ target: [messageEmails.userId, messageEmails.conversationId], set: { sentAt: now, upToSeq: due.upToSeq } });
  return id;
}

/**
 * Runs the due work once, in one transaction under the advisory lock: a second run waits for the
 * first to commit, then finds its e-mails already recorded, so each is sent once. The e-mails
 * leave after the commit (without a provider the outbox keeps them).
 */
export async function runDueWork(db: Db, now = new Date(), delaySeconds = env().MESSAGE_EMAIL_DELAY_S): Promise<DueReport> {
  const { emailIds, pruned } = await transaction(db, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${DUE_WORK_LOCK})`);
    const emailIds: string[] = [];
    for (const due of await unreadDue(tx, now, delaySeconds)) emailIds.push(await emailUnread(tx, due, now));
    const before = new Date(now.getTime() - LIVE_HISTORY_DAYS * 86_400_000);
    const trimmed = await tx.execute(
      sql`delete from ${liveEvents} where ctid in (select ctid from ${liveEvents} where ${liveEvents.createdAt} < ${before.toISOString()} limit ${PRUNE_PER_RUN})`,
    );
    return { emailIds, pruned: affected(trimmed) };
  });
  await deliverEmails(db, emailIds);
  return { emailed: emailIds.length, pruned };
}

/** Rows a statement changed, as postgres.js (`count`) and PGlite (`affectedRows`) report it. */
const affected = (result: unknown): number => {
  const { count, affectedRows } = result as { count?: number; affectedRows?: number };
  return count ?? affectedRows ?? 0;
};
