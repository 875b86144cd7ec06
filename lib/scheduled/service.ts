import "server-only";
import { and, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { transaction } from "@/db/transaction";
import { emailOutbox, liveEvents } from "@/db/schema";
import { dropEndedSessions } from "@/lib/auth/sessions";
import { readExpiredHelloNotices } from "@/lib/connections/expiry";
import { env } from "@/lib/env";
import { claimEmailRetries, deliverEmails, deliversEmail, dropOldMail } from "@/lib/mail/outbox";
import { sweepUnclaimedForumPhotos } from "@/lib/forum/photos";
import { rebuildTopScoresIfDue } from "@/lib/forum/top";
import { sweepStagedPhotos } from "@/lib/images/staged";
import { retryUndeletedImages } from "@/lib/images/undeleted";
import { sweepUnsentMessagePhotos } from "@/lib/messages/photos";
import { enqueueUnreadMessageEmails } from "@/lib/messages/unread-email";
import { dropOldUnsubscribeTokens } from "@/lib/notifications/preferences";
import { emailUnwanted } from "@/lib/notifications/wanted";
import { deliverDuePushes } from "@/lib/notifications/push/deliver";
import { askHowItWent, sendPlanReminders } from "@/lib/plans/reminders";

/**
 * Work that falls due with time rather than with a request: the e-mail about messages left
 * unread, the plans' reminders and 'How was it?', the e-mails and pushes still waiting (retries,
 * and any a request could not send after its commit), trimming the live history, the outbox, the
 * expired unsubscribe links and the sessions ended long ago, marking read the notices of hellos that expired, sweeping photos uploaded ahead that nothing used, removing
 * files storage failed to remove, and the forum Top's daily rebuild (lib/forum/top.ts), which no reader waits for. Serverless instances have no timers, so it runs from
 * `POST /api/cron/due` (a platform cron), from `server.ts` every minute in process, and when the
 * dev outbox is opened; every run is safe to repeat and to overlap.
 */

/** The transaction-scoped advisory lock a run holds (the migrations' is 724301): overlapping runs take turns. */
const DUE_WORK_LOCK = 724302;

/** How long live rows are kept: a stream resumed after longer is told to `reset`. */
export const LIVE_HISTORY_DAYS = 7;

/** Old rows a run reads at most (their people's histories are trimmed up to them), so one run stays short; the next goes on. */
const PRUNE_PER_RUN = 10_000;

export type DueReport = {
  emailed: number;
  reminded: number;
  pruned: number;
  pushed: number;
  swept: number;
  mailDropped: number;
  /** Unsubscribe links removed past their expiry (lib/notifications/preferences.ts). */
  linksDropped: number;
  /** Sessions ended more than ENDED_SESSIONS_KEPT_DAYS ago, removed (lib/auth/sessions.ts). */
  sessionsDropped: number;
  /** Files removed at a try again (lib/images/undeleted.ts). */
  filesRemoved: number;
  /** Notices of hellos that expired, marked read (lib/connections/expiry.ts). */
  helloNoticesRead: number;
  /** Whether this run rebuilt the forum's Top scores (once a day per database, lib/forum/top.ts). */
  topRebuilt: boolean;
};

/**
 * Runs the due work once, in two transactions each under the advisory lock: a second run waits for
 * the first to commit, then finds its reminders and e-mails already recorded, so each is sent once. The e-mails
 * leave after the commit (without a provider the outbox keeps them), then the due pushes.
 */
export async function runDueWork(db: Db, now = new Date(), delaySeconds = env().MESSAGE_EMAIL_DELAY_S): Promise<DueReport> {
  // The plans' reminders and 'How was it?' commit on their own, first: what they claim and tell (the
  // plans, the people's live numbers) stays locked until their commit, so a person answering a plan
  // or sent anything live meanwhile waits for them only, never for the trimming and sweeping below.
  const { reminded, reminderEmailIds } = await transaction(db, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${DUE_WORK_LOCK})`);
    const reminded = (await sendPlanReminders(tx, now)) + (await askHowItWent(tx, now));
    // The reminders' e-mails (queued by the notifications' sender, which delivers after a request's
    // response, and a run is no request): this transaction's rows, delivered with the others after the commit.
    const queued =
      reminded === 0
        ? []
        : await tx
            .select({ id: emailOutbox.id })
            .from(emailOutbox)
            .where(and(sql`${emailOutbox.createdAt} = now()`, isNull(emailOutbox.deliveredAt)));
    return { reminded, reminderEmailIds: queued.map((row) => row.id) };
  });
  const { emailIds, pruned, mailDropped, linksDropped, sessionsDropped, helloNoticesRead } = await transaction(db, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${DUE_WORK_LOCK})`);
    const emailIds = [...reminderEmailIds, ...(await enqueueUnreadMessageEmails(tx, now, delaySeconds))];
    // E-mails whose try is due again: failed, or never tried (an instance stopped after its commit).
    if (deliversEmail()) emailIds.push(...(await claimEmailRetries(tx, now)));
    const before = new Date(now.getTime() - LIVE_HISTORY_DAYS * 86_400_000);
    // Each person's history is cut at a seq, never with holes: a row's time is when its transaction
    // began, so a later seq may be older; everything up to the newest old row goes (a resume from
    // before it is told to `reset`, lib/live/sse.ts, and one after it misses nothing).
    const trimmed = await tx.execute(
      sql`delete from ${liveEvents} e using (
        select user_id, max(seq) as through from (
          select ${liveEvents.userId} as user_id, ${liveEvents.seq} as seq from ${liveEvents}
          where ${liveEvents.createdAt} < ${before.toISOString()} order by ${liveEvents.createdAt} limit ${PRUNE_PER_RUN}
        ) oldest group by user_id
      ) old where e.user_id = old.user_id and e.seq <= old.through`,
    );
    return {
      emailIds,
      pruned: affected(trimmed),
      mailDropped: await dropOldMail(tx, now),
      linksDropped: await dropOldUnsubscribeTokens(tx, now),
      sessionsDropped: await dropEndedSessions(tx, now),
      helloNoticesRead: await readExpiredHelloNotices(tx, now),
    };
  });
  // Outside the lock: pushes are claimed row by row (SKIP LOCKED), so runs share the work. Before
  // the e-mails, which are paced to the provider's rate (lib/mail/outbox.ts).
  const { sent } = await deliverDuePushes(db, { now, tidy: true });
  await deliverEmails(db, emailIds, undefined, { unwanted: emailUnwanted() });
  // Photos uploaded ahead that nothing used, and files whose removal failed (SKIP LOCKED: runs share the work).
  const swept = (await sweepUnclaimedForumPhotos(db, now)) + (await sweepUnsentMessagePhotos(db, now)) + (await sweepStagedPhotos(db, now));
  const filesRemoved = await retryUndeletedImages(db, now);
  // Its own transaction, its row claimed SKIP LOCKED: one run a day rebuilds, the others go on.
  const topRebuilt = await rebuildTopScoresIfDue(db);
  return {
    emailed: emailIds.length,
    reminded,
    pruned,
    pushed: sent,
    swept,
    mailDropped,
    linksDropped,
    sessionsDropped,
    filesRemoved,
    helloNoticesRead,
    topRebuilt,
  };
}

/** Rows a statement changed, as postgres.js (`count`) and PGlite (`affectedRows`) report it. */
const affected = (result: unknown): number => {
  const { count, affectedRows } = result as { count?: number; affectedRows?: number };
  return count ?? affectedRows ?? 0;
};
