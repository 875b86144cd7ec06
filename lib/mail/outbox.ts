import "server-only";
import { and, arrayContains, desc, eq, getTableColumns, inArray, isNotNull, isNull, lte, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { deleteOldest } from "@/db/batches";
import { emailOutbox, users } from "@/db/schema";
import { env, sendsRealEmail } from "@/lib/env";
import { actionAttribute, type EmailMessage } from "./templates";
import { normalizeEmail } from "@/lib/auth/rules";
import { afterResponse } from "@/lib/http/after-response";
import { describeError } from "@/lib/log";
import type { NotificationKind } from "@/lib/notifications/rules";
import { coupleApartAmong } from "@/lib/safety/visibility";

/**
 * An e-mail as queued: what it says, whose account it goes to (null: an address with no account
 * yet, an invitation's) and the people it names or quotes besides them. Both go with the account
 * (deleteMailAbout), whatever address the e-mail went to. A notification's e-mail names its type
 * (and conversation), by which its person's choices are read again as it is sent; a
 * transactional one (a link to verify, reset, accept) has none and always goes.
 */
export type QueuedEmail = EmailMessage & { about?: readonly string[] } & (
    | { recipientId: string | null; notice?: undefined }
    | { recipientId: string; notice: { type: NotificationKind; conversationId: string | null; planId?: string | null } }
  );

const MINUTE = 60_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
/** An e-mail queued, or handed to a run, is the due work's to try again after this, unless delivered first. */
const EMAIL_LEASE_MS = 10 * MINUTE;
/** The wait after each failed try, the first try's then each of the due work's; after the last try it is given up. */
const RETRY_AFTER_MINUTES = [1, 5, 15, 60, 240] as const;
/** Tries in all: the first, and one after each wait. */
export const EMAIL_ATTEMPTS = RETRY_AFTER_MINUTES.length + 1;
/** An e-mail older than this is not sent late (a reminder of a plan past, a link long expired): it is given up. */
const EMAIL_STALE_MS = 24 * 60 * MINUTE;
/** The most e-mails one run of the due work tries again, so a run stays short; the next goes on. */
export const EMAIL_RETRIES_PER_RUN = 100;
/**
 * How long an e-mail's row stays, whatever became of it: long enough to answer "was it sent?",
 * and no longer to keep an address and a subject that may name a couple (a waiting e-mail is
 * given up after a day; a preview's outbox is its reviewers' mailbox for as long).
 */
export const EMAIL_KEPT_DAYS = 30;
/** The most old e-mails one run of the due work drops, so a run stays short; the next goes on. */
export const EMAIL_DROPS_PER_RUN = 1_000;

/** Writes the e-mails in the caller's transaction, in one statement: they exist exactly when the change that caused them does. Answers their ids. */
export async function enqueueEmails(db: Db, messages: readonly QueuedEmail[]): Promise<string[]> {
  if (messages.length === 0) return [];
  const rows = await db
    .insert(emailOutbox)
    .values(
      messages.map(({ recipientId, about = [], notice, ...message }) => ({
        ...message,
        recipientId,
        notificationType: notice?.type ?? null,
        conversationId: notice?.conversationId ?? null,
        planId: notice?.planId ?? null,
        aboutUserIds: [...new Set(recipientId ? [recipientId, ...about] : about)],
        retryAt: sql`now() + ${`${EMAIL_LEASE_MS} milliseconds`}::interval`,
      })),
    )
    .returning({ id: emailOutbox.id });
  return rows.map((row) => row.id);
}

/** Writes one e-mail in the caller's transaction (enqueueEmails). */
export async function enqueueEmail(db: Db, message: QueuedEmail): Promise<string> {
  const [id] = await enqueueEmails(db, [message]);
  return id!;
}

/**
 * Deleting an account, or replacing one that never proved its address (lib/invitations/join.ts):
 * the e-mails to it (at its address now, or at an earlier one or one it asked to change to) and
 * those naming or quoting it, each of which carries its id (enqueueEmails puts the recipient's
 * among them), in the caller's transaction (one waiting for delivery keeps its whole body; a
 * delivered one its subject, which may name their couple, and address). Not the rest at its
 * address: other couples' invitations to it name their inviter alone, and still wait for whoever
 * holds it.
 */
export async function deleteMailAbout(db: Db, userId: string): Promise<void> {
  await db.delete(emailOutbox).where(arrayContains(emailOutbox.aboutUserIds, [userId]));
}

/**
 * Deleting an invitee (lib/invitations/manage.ts forgetInvitee): the invitation e-mails to the
 * addresses their invitations went to. Such an e-mail names its inviter alone (its address had no
 * account), which tells it from the mail of anyone who has an account at one of those addresses.
 */
export async function deleteInvitationMail(db: Db, inviterId: string, addresses: readonly string[]): Promise<void> {
  if (addresses.length === 0) return;
  await db
    .delete(emailOutbox)
    .where(and(inArray(emailOutbox.to, [...new Set(addresses)]), sql`${emailOutbox.aboutUserIds} = array[${inviterId}::uuid]`));
}

/** The e-mails older than EMAIL_KEPT_DAYS go, the oldest first, at most `limit` (the due work's, in its transaction). Answers how many. */
export async function dropOldMail(tx: Db, now: Date, limit = EMAIL_DROPS_PER_RUN): Promise<number> {
  const before = new Date(now.getTime() - EMAIL_KEPT_DAYS * 86_400_000).toISOString();
  return deleteOldest(tx, emailOutbox, {
    where: sql`${emailOutbox.createdAt} < ${before}::timestamptz`,
    order: emailOutbox.createdAt,
    limit,
  });
}

/**
 * Hands one e-mail to the provider; `key` is the outbox row's id, the provider's idempotency key,
 * so a try again after a send the provider took (its answer lost, or the row's update) never
 * sends twice. Throws ProviderBusy when the provider asks to slow down.
 */
type Provider = (message: EmailMessage, key: string) => Promise<void>;

/** The provider refused for its rate limit, not for the e-mail: the rest wait, no try counted. */
export class ProviderBusy extends Error {}

/**
 * Whether a Resend refusal says "later", not "never": its rate limit (a 429 whatever its name, but
 * the daily and monthly quotas), or the same e-mail's send still running elsewhere (its
 * idempotency key in use: a try again finds it sent).
 */
export const isBusyAnswer = (error: { name: string; statusCode: number | null }): boolean =>
  error.name === "concurrent_idempotent_requests" ||
  (error.statusCode === 429 && !error.name.endsWith("_quota_exceeded")) ||
  error.name === "rate_limit_exceeded";

/** The least time between two sends of one delivery: Resend's default limit is 2 requests a second. */
export const EMAIL_SEND_GAP_MS = 550;
/** How long e-mails wait after the provider said it was busy (the due work then tries them again). */
export const EMAIL_BUSY_WAIT_MS = MINUTE;
/**
 * How long one delivery sends before it leaves the rest to the next run of the due work (due at
 * once, no try counted): a run's other work and the platform's time limit come after it.
 */
export const EMAIL_DELIVERY_BUDGET_MS = 20_000;

function configuredProvider(): Provider | null {
  // A preview keeps its mail in the outbox, where the reviewer reads it (/dev/outbox).
  if (!sendsRealEmail()) return null;
  const { RESEND_API_KEY, EMAIL_FROM } = env();
  return async (message, key) => {
    const { Resend } = await import("resend");
    // Resend keeps an idempotency key for 24 hours: as long as an e-mail is tried (EMAIL_STALE_MS).
    const { error } = await new Resend(RESEND_API_KEY!).emails.send({ from: EMAIL_FROM, ...message }, { idempotencyKey: `email/${key}` });
    if (error && isBusyAnswer(error)) throw new ProviderBusy(error.message);
    if (error) throw new Error(`${error.name}: ${error.message}`);
  };
}

/** Whether e-mails leave for a provider here (not a preview, a key set): only then does the due work try them again. */
export const deliversEmail = (): boolean => configuredProvider() !== null;

/**
 * The due work's share of the e-mails (in its transaction): those whose try is due, oldest due
 * first, at most `limit`, leased for EMAIL_LEASE_MS (a run that stops before trying them leaves
 * them to a later one); one older than a day is given up instead. Rows another run holds are
 * skipped. Answers the ids to deliver after the commit.
 */
export async function claimEmailRetries(tx: Db, now: Date, limit = EMAIL_RETRIES_PER_RUN): Promise<string[]> {
  const stale = sql`${emailOutbox.createdAt} <= ${new Date(now.getTime() - EMAIL_STALE_MS).toISOString()}::timestamptz`;
  const due = tx
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(and(lte(emailOutbox.retryAt, now), isNull(emailOutbox.deliveredAt)))
    .orderBy(emailOutbox.retryAt)
    .limit(limit)
    .for("update", { skipLocked: true });
  const claimed = await tx
    .update(emailOutbox)
    .set({
      retryAt: sql`case when ${stale} then null else ${new Date(now.getTime() + EMAIL_LEASE_MS).toISOString()}::timestamptz end`,
    })
    .where(sql`${emailOutbox.id} = any(array(${due}))`)
    .returning({ id: emailOutbox.id, retryAt: emailOutbox.retryAt });
  return claimed.filter((row) => row.retryAt !== null).map((row) => row.id);
}

/** Why an e-mail was not sent: what it tells one couple of another, once they stand apart (coupleApartAmong). */
export const WITHHELD = "Withheld: its couples no longer stand together (a block or a suspension since it was queued).";
/** Why a notification's e-mail was not sent: its person stopped wanting it (lib/notifications/wanted.ts). */
export const UNWANTED = "Not sent: its person turned this e-mail off, or muted or read its conversation, since it was queued.";
/**
 * Why an e-mail was not sent: words it quotes were erased or changed since it was queued (a
 * message, lib/messages/unread-email.ts; a forum post or reply, lib/notifications/service.ts).
 */
export const QUOTE_GONE = "Not sent: words it quotes were erased or changed since it was queued.";

/** SQL: the e-mail's button opens `path`, exactly (a post's link is not one of its replies'). */
export const mailOpening = (path: string): SQL => sql`strpos(${emailOutbox.html}, ${actionAttribute(path)}) > 0`;

/** Gives up the e-mails `where` picks that are not delivered: never tried again, their words gone, `reason` kept. */
export async function giveUpMail(db: Db, where: SQL, reason: string): Promise<void> {
  await db
    .update(emailOutbox)
    .set({ retryAt: null, lastError: reason, text: "", html: "" })
    .where(and(where, isNull(emailOutbox.deliveredAt)));
}

/**
 * One delivery's clock and time budget, and `unwanted`: what picks the notification e-mails whose
 * person no longer wants them, the notifications' rule (lib/notifications/wanted.ts emailUnwanted)
 * handed in by their senders, as mail knows no feature.
 */
export type EmailDelivery = { now?: () => Date; budgetMs?: number; unwanted?: SQL };

/**
 * Hands queued e-mails to the provider, EMAIL_SEND_GAP_MS apart, each read again just before its
 * send (one given up, delivered or removed meanwhile is skipped; a notification's goes to its
 * person's address as it is then, whatever it was when queued); one whose couples no longer
 * stand together is given up unsent (WITHHELD), and so is a notification's its person no longer
 * wants (`unwanted`: UNWANTED). A delivery not handed that rule leaves notification e-mails to the
 * due work's, which has it: sent without it, one could reach someone who turned it off. A failure
 * is recorded on the row, counted, and never propagates (the account stays); the due work tries
 * it again after the next of RETRY_AFTER_MINUTES, EMAIL_ATTEMPTS tries in all, then gives it up
 * with its error kept.
 * A provider busy (its rate limit) stops the delivery: this e-mail and the rest wait
 * EMAIL_BUSY_WAIT_MS for the due work; past its budget the rest are due at once; neither counts a try.
 */
export async function deliverEmails(
  db: Db,
  ids: string[],
  provider: Provider | null = configuredProvider(),
  { now = () => new Date(), budgetMs = EMAIL_DELIVERY_BUDGET_MS, unwanted }: EmailDelivery = {},
): Promise<void> {
  if (!provider || ids.length === 0) return;
  /** Still to be tried: one given up meanwhile (giveUpMail) has no words left to send, one delivered is done. */
  const stillDue = and(isNull(emailOutbox.deliveredAt), isNotNull(emailOutbox.retryAt));
  const pending = await db
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(and(inArray(emailOutbox.id, ids), stillDue, unwanted ? undefined : isNull(emailOutbox.notificationType)));
  /** This e-mail and the rest are the due work's after `waitMs`. */
  const leaveFrom = (index: number, waitMs: number) =>
    db
      .update(emailOutbox)
      .set({ retryAt: new Date(now().getTime() + waitMs) })
      .where(
        inArray(
          emailOutbox.id,
          pending.slice(index).map((rest) => rest.id),
        ),
      );
  /** When this delivery's first and latest sends started (none yet: undefined). */
  let sends: { first: number; last: number } | undefined;
  for (const [index, { id }] of pending.entries()) {
    if (sends) {
      const next = sends.last + EMAIL_SEND_GAP_MS;
      if (next - sends.first > budgetMs) return void (await leaveFrom(index, 0));
      await sleep(next - Date.now());
    }
    // Read as it is sent, not as the delivery began: the sends are paced, and an erasure, a block,
    // an account's deletion or a choice made meanwhile (seconds into a batch) gives it up or removes it.
    const [row] = await db
      .select({
        ...getTableColumns(emailOutbox),
        withheld: coupleApartAmong(emailOutbox.aboutUserIds),
        unwanted: unwanted ? sql<boolean>`coalesce(${unwanted}, false)` : sql<boolean>`false`,
        recipientAddress: sql<string | null>`(select ${users.email} from ${users} where ${users.id} = ${emailOutbox.recipientId})`,
      })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.id, id), stillDue));
    if (!row) continue;
    // A notification's e-mail goes to its person's address as it is now: an address they left
    // (a confirmed e-mail change) no longer speaks for them. A transactional e-mail keeps the
    // mailbox it was written for (a change's notice to the old address; links a change ended).
    if (row.notificationType !== null && row.recipientAddress !== null && row.recipientAddress !== row.to) {
      row.to = row.recipientAddress;
      await db.update(emailOutbox).set({ to: row.to }).where(eq(emailOutbox.id, row.id));
    }
    if (row.withheld) {
      // Its couples no longer stand together (a block, a suspension since it was queued): given up, its words gone.
      await giveUpMail(db, eq(emailOutbox.id, row.id), WITHHELD);
      continue;
    }
    if (row.unwanted) {
      // Its person turned this e-mail off (or muted or read its conversation) since it was queued: given up, its words gone.
      await giveUpMail(db, eq(emailOutbox.id, row.id), UNWANTED);
      continue;
    }
    const startedAt = Date.now();
    sends = { first: sends?.first ?? startedAt, last: startedAt };
    try {
      await provider(
        { to: row.to, subject: row.subject, text: row.text, html: row.html, ...(row.headers ? { headers: row.headers } : {}) },
        row.id,
      );
      // Once delivered, the body (with its live link) has no reason to stay in the database.
      await db
        .update(emailOutbox)
        .set({ deliveredAt: now(), lastError: null, retryAt: null, text: "", html: "" })
        .where(eq(emailOutbox.id, row.id));
    } catch (error) {
      if (error instanceof ProviderBusy) {
        await leaveFrom(index, EMAIL_BUSY_WAIT_MS);
        console.warn("[mail] the provider is busy: e-mails wait", { waiting: pending.length - index });
        return;
      }
      console.error("[mail] delivery failed", { id: row.id, error: describeError(error) });
      const wait: number | undefined = RETRY_AFTER_MINUTES[row.attempts];
      await db
        .update(emailOutbox)
        .set({
          lastError: String(error).slice(0, 500),
          attempts: row.attempts + 1,
          retryAt: wait === undefined ? null : new Date(now().getTime() + wait * MINUTE),
        })
        .where(eq(emailOutbox.id, row.id));
    }
  }
}

export type OutboxMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
  createdAt: string;
};

export async function listOutbox(db: Db, to?: string, limit = 100): Promise<OutboxMessage[]> {
  const rows = await db
    .select({
      to: emailOutbox.to,
      subject: emailOutbox.subject,
      text: emailOutbox.text,
      html: emailOutbox.html,
      headers: emailOutbox.headers,
      createdAt: emailOutbox.createdAt,
    })
    .from(emailOutbox)
    .where(to ? eq(emailOutbox.to, normalizeEmail(to)) : undefined)
    .orderBy(desc(emailOutbox.createdAt))
    .limit(limit);
  return rows.map(({ headers, ...row }) => ({ ...row, ...(headers ? { headers } : {}), createdAt: row.createdAt.toISOString() }));
}

/**
 * Delivers after the response is sent, so a slow or failing provider never holds up the user;
 * outside a request (a script), the due work sends them. Notification e-mails go only when handed
 * `unwanted` (deliverEmails).
 */
export function deliverAfterResponse(db: Db, ids: string[], { unwanted }: Pick<EmailDelivery, "unwanted"> = {}): void {
  if (!configuredProvider() || ids.length === 0) return;
  afterResponse(() => deliverEmails(db, ids, undefined, { unwanted }));
}
