import "server-only";
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { SENT_AGAIN_SECONDS, sentJustNow, transaction } from "@/db/transaction";
import { bannedEmails, couples, coupleSanctions, reports, users } from "@/db/schema";
import { addressProven } from "@/lib/auth/email-verification";
import { revokeAllSessions } from "@/lib/auth/sessions";
import { hmac } from "@/lib/auth/secrets";
import { holdPartnersOf } from "@/lib/membership/partner";
import { authSecret } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { recordModeration } from "./moderation-log";
import type { SanctionInput } from "./moderation-schemas";
import { assertMayActOn, type Moderator } from "./moderators";
import { announceSanction, type SafetyReactions, type Sanctioned } from "./reactions";
import { currentRestriction, shapeStanding, standingColumns, standingNow } from "./notices";
import { decidedWith, reportReviewed, reportsAgainst } from "./reports-against";
import { restrictedText, restrictionEnd, suspends, SUSPENDING_KINDS, type SanctionKind } from "./rules";

/**
 * Moderators acting on a couple. Warn: a notice shown once. Restrict: no hello, messages, posts or
 * replies until it ends (reading still works). Suspend: both partners signed out on every device
 * (their session rows end, so refresh tokens and open live streams end at their next check, on
 * every instance), sign-in refused, and the couple hidden as a hidden couple is (status
 * 'suspended': lib/safety/visibility.ts's one rule). Ban: a suspension for good, and the
 * partners' e-mail addresses kept as a keyed hash that registration refuses, kept when the
 * account is deleted, until that ban is lifted. Every action is logged, and announced to the
 * features (lib/registry/safety.ts: the couple's notice and e-mail, its conversations ended).
 */

const notFound = () => new AppError("NOT_FOUND", "This couple does not exist.");
const alreadyLifted = () => new AppError("NOT_FOUND", "This action does not exist or was already lifted.");
const alreadyEnded = () => new AppError("VALIDATION_ERROR", "This action has already ended: there is nothing left to lift.");

/** The keyed hash a banned address is kept as (never the address itself). */
export const bannedEmailHash = (normalizedEmail: string): string => hmac(authSecret(), `banned-email:${normalizedEmail}`);

/** Whether a (normalised) address belongs to a banned couple's partner. */
export async function isBannedEmail(db: Db, normalizedEmail: string): Promise<boolean> {
  const [row] = await db
    .select({ hash: bannedEmails.emailHash })
    .from(bannedEmails)
    .where(eq(bannedEmails.emailHash, bannedEmailHash(normalizedEmail)));
  return row !== undefined;
}

/** Before a hello, a message, a post or a reply: a restricted couple is refused (403 ACCOUNT_RESTRICTED, with why and until when). */
export async function assertNotRestricted(db: Db, coupleId: string): Promise<void> {
  const restriction = await currentRestriction(db, coupleId);
  if (restriction)
    throw new AppError("ACCOUNT_RESTRICTED", restrictedText(restriction), {
      body: { restriction: { reason: restriction.reason, endsAt: restriction.endsAt } },
    });
}

/**
 * `assertNotRestricted` inside a write's transaction, before anything is written: the couple's
 * partners key-shared and the couple share-locked first (`lockedCouple`'s order, partners then
 * couple), so a moderator's action holding the couple is waited for and its restriction read once
 * it commits (a suspension ends the couple's conversations, which the write reads next); a write
 * that came first holds the action back until it commits. Checked before the transaction only, a
 * write in flight landed just after the action.
 */
export async function holdUnrestricted(tx: Db, coupleId: string): Promise<void> {
  await holdPartnersOf(tx, coupleId);
  await tx.select({ id: couples.id }).from(couples).where(eq(couples.id, coupleId)).for("share");
  await assertNotRestricted(tx, coupleId);
}

/** A partner read the warning: it is not shown again (to either partner). */
export async function markWarningSeen(db: Db, coupleId: string, sanctionId: string): Promise<void> {
  await db
    .update(coupleSanctions)
    .set({ seenAt: sql`now()` })
    .where(and(eq(coupleSanctions.id, sanctionId), eq(coupleSanctions.coupleId, coupleId), eq(coupleSanctions.kind, "warn")));
}

/**
 * The partners of a couple, locked for the action (null: no such couple). First the partners' rows,
 * with the key-share the action's notices take on them anyway, then the couple: the order a
 * deletion, a profile save and a join take them (a partner's row, then the couple), so an action
 * never holds the couple while it waits on a partner (one who joined between the two reads aside:
 * Postgres ends one of the two, and db/transaction.ts runs it again). The couple `NO KEY UPDATE`,
 * the lock an update of its status takes: it does not wait on the key-share lock a row
 * referencing the couple holds, so two couples reporting each other at one instant never wait on
 * each other.
 */
export async function lockedCouple(tx: Db, coupleId: string) {
  await holdPartnersOf(tx, coupleId);
  const [couple] = await tx
    .select({ id: couples.id, partner1Id: couples.partner1Id, partner2Id: couples.partner2Id })
    .from(couples)
    .where(eq(couples.id, coupleId))
    .for("no key update");
  return couple ? { id: couple.id, partnerIds: [couple.partner1Id, couple.partner2Id].filter((id): id is string => id !== null) } : null;
}

/**
 * A moderator's action on a couple (`POST /api/moderation/couples/{id}/actions`), with a reason
 * from the guidelines and a note for the record; from a report (`reportId`), a report about the
 * couple or a plan is closed with it (`closeReportsOf`). Never by a moderator whose own couple it
 * concerns (`assertMayActOn`: theirs, or one their couple reported, whose action decides what that
 * report asks).
 */
export async function sanctionCouple(
  db: Db,
  moderator: Moderator | null,
  coupleId: string,
  input: SanctionInput,
  reactions: readonly SafetyReactions[],
): Promise<{ id: string }> {
  return transaction(db, async (tx) => {
    const couple = await lockedCouple(tx, coupleId);
    if (!couple) throw notFound();
    if (moderator) await assertMayActOn(tx, moderator, coupleId);
    const endsAt = input.kind === "restrict" && input.days ? restrictionEnd(new Date(), input.days) : null;
    const report = input.reportId && moderator ? await reportActedFrom(tx, input.reportId, coupleId) : null;
    // Under the couple's lock: the same decision sent again (a double click, a retry) is the one taken, not a second.
    // One that closes its report needs no such check: the report is reviewed for the second (`reportActedFrom`).
    const taken =
      moderator && !closesWithTheAction(report) ? await sameActionJustTaken(tx, moderator.userId, coupleId, input, endsAt) : null;
    if (taken) return taken;
    const [row] = await tx
      .insert(coupleSanctions)
      .values({
        coupleId,
        kind: input.kind,
        reason: input.reason,
        note: input.note ?? null,
        endsAt,
        createdByUserId: moderator?.userId ?? null,
      })
      .returning({ id: coupleSanctions.id });
    if (suspends(input.kind)) {
      await tx.update(couples).set({ status: "suspended" }).where(eq(couples.id, coupleId));
      for (const userId of couple.partnerIds) await revokeAllSessions(tx, userId);
    }
    if (input.kind === "ban" && couple.partnerIds.length) {
      // Proven addresses only: one nobody proved (a shareable link's account) may be a stranger's.
      const emails = await tx
        .select({ email: users.email })
        .from(users)
        .where(and(inArray(users.id, couple.partnerIds), addressProven(users)));
      if (emails.length > 0)
        await tx
          .insert(bannedEmails)
          .values(emails.map(({ email }) => ({ emailHash: bannedEmailHash(email), sanctionId: row!.id })))
          .onConflictDoNothing();
    }
    if (report && moderator && closesWithTheAction(report)) await closeReportsOf(tx, moderator.userId, report);
    await recordModeration(tx, {
      moderatorUserId: moderator?.userId ?? null,
      action: input.kind,
      coupleId,
      target: input.reportId ? { type: "report", id: input.reportId } : null,
      reason: input.reason,
      note: [input.days ? `${input.days} day${input.days === 1 ? "" : "s"}` : null, input.note].filter(Boolean).join(" · ") || null,
    });
    const sanction: Sanctioned = {
      sanctionId: row!.id,
      coupleId,
      kind: input.kind,
      reason: input.reason,
      endsAt: endsAt?.toISOString() ?? null,
    };
    await announceSanction(tx, reactions, "sanctioned", sanction);
    return { id: row!.id };
  });
}

/**
 * The moderator's own action on the couple, standing and taken just now (SENT_AGAIN_SECONDS)
 * with the same kind, guideline, note and length (a restriction's end differs by the seconds
 * between the two sends, a different length by a day at least).
 */
async function sameActionJustTaken(tx: Db, moderatorUserId: string, coupleId: string, input: SanctionInput, endsAt: Date | null) {
  const [row] = await tx
    .select({ id: coupleSanctions.id })
    .from(coupleSanctions)
    .where(
      and(
        eq(coupleSanctions.coupleId, coupleId),
        eq(coupleSanctions.createdByUserId, moderatorUserId),
        eq(coupleSanctions.kind, input.kind),
        eq(coupleSanctions.reason, input.reason),
        input.note ? eq(coupleSanctions.note, input.note) : isNull(coupleSanctions.note),
        isNull(coupleSanctions.liftedAt),
        sentJustNow(coupleSanctions.createdAt),
        endsAt
          ? sql`abs(extract(epoch from ${coupleSanctions.endsAt} - ${endsAt.toISOString()}::timestamptz)) < ${SENT_AGAIN_SECONDS}`
          : isNull(coupleSanctions.endsAt),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** What acting on the couple decides: the couple itself, a plan, and a hello (its words are never removed: HELLO_NOT_REMOVED). */
const ACTED_ON_WITH_THE_COUPLE = new Set<(typeof reports.$inferSelect)["targetType"]>(["couple", "plan", "request"]);

type ActedFrom = Pick<typeof reports.$inferSelect, "targetType" | "targetId" | "reporterCoupleId">;

/** Whether the action closes the report it was taken from (`closeReportsOf`); none taken from a report: false. */
const closesWithTheAction = (report: ActedFrom | null): boolean => report !== null && ACTED_ON_WITH_THE_COUPLE.has(report.targetType);

/**
 * The report an action is taken from: only an open report against the couple acted on (never one
 * about another couple, such as the moderator's own), locked until the action commits: one
 * decision per report, so a report another moderator decided, even at the same instant, is
 * reviewed (`reportReviewed`, as resolveReport answers), and the action is not taken.
 */
async function reportActedFrom(tx: Db, reportId: string, coupleId: string): Promise<ActedFrom> {
  const [report] = await tx
    .select({ targetType: reports.targetType, targetId: reports.targetId, reporterCoupleId: reports.reporterCoupleId })
    .from(reports)
    .where(
      and(
        eq(reports.id, reportId),
        eq(reports.status, "open"),
        sql`${reports.id} in (select id from (${reportsAgainst(coupleId)}) against)`,
      ),
    )
    .for("update");
  if (!report) throw reportReviewed();
  return report;
}

/**
 * Acting from a report about the couple, a plan or a hello closes the open reports decided with it
 * (`decidedWith`; status 'removed': the moderator acted on it). A post's, reply's or message's
 * reports stay open (`closesWithTheAction`): the action is on the couple, not on those words, which
 * wait for their own 'dismiss' or 'remove' (resolveReport), so they never stay hidden with no
 * report left to decide, nor stay shown under reports that say 'removed'.
 */
async function closeReportsOf(tx: Db, moderatorUserId: string, report: ActedFrom): Promise<void> {
  await tx
    .update(reports)
    .set({ status: "removed", reviewedByUserId: moderatorUserId, reviewedAt: sql`now()` })
    .where(decidedWith(report));
}

/**
 * Lifts an action, with a reason (`POST /api/moderation/sanctions/{id}/lift`): a suspension's
 * couple is active again once no suspension or ban still stands (its partners sign in again;
 * ended conversations stay ended); a ban's addresses may register again. Logged, and the couple
 * is told. A restriction that ended holds nothing to lift (`standingNow`): refused, nobody told.
 */
export async function liftSanction(
  db: Db,
  moderator: Moderator,
  sanctionId: string,
  reason: string,
  reactions: readonly SafetyReactions[],
): Promise<void> {
  await transaction(db, async (tx) => {
    const [found] = await tx
      .select({ coupleId: coupleSanctions.coupleId, standing: sql<boolean>`${standingNow()}` })
      .from(coupleSanctions)
      .where(and(eq(coupleSanctions.id, sanctionId), isNull(coupleSanctions.liftedAt)));
    if (!found) throw alreadyLifted();
    // now() is the transaction's start: what had ended by then stays ended for `liftLocked` too.
    if (!found.standing) throw alreadyEnded();
    await lockedCouple(tx, found.coupleId);
    await assertMayActOn(tx, moderator, found.coupleId);
    if (!(await liftLocked(tx, moderator, sanctionId, reason, reactions, "lift"))) throw alreadyLifted();
  });
}

/**
 * A lift's work in the caller's transaction (a lift, or an appeal granted with its decision), the
 * action's couple locked (`lockedCouple`) and the moderator checked (`assertMayActOn`) by the
 * caller. Answers false, changing nothing, when the action is lifted already (one lift per action,
 * so of a lift and a granted appeal at the same instant the second finds it lifted) or has ended
 * (`standingNow`): the couple is never told an ended action was lifted.
 */
export async function liftLocked(
  tx: Db,
  moderator: Moderator,
  sanctionId: string,
  reason: string,
  reactions: readonly SafetyReactions[],
  action: "lift" | "appeal_decided",
): Promise<boolean> {
  const [found] = await tx
    .update(coupleSanctions)
    .set({ liftedAt: sql`now()`, liftedByUserId: moderator.userId, liftReason: reason })
    .where(and(eq(coupleSanctions.id, sanctionId), standingNow()))
    .returning({
      coupleId: coupleSanctions.coupleId,
      kind: coupleSanctions.kind,
      reason: coupleSanctions.reason,
      endsAt: coupleSanctions.endsAt,
    });
  if (!found) return false;
  if (suspends(found.kind)) {
    const [still] = await tx
      .select({ id: coupleSanctions.id })
      .from(coupleSanctions)
      .where(
        and(
          eq(coupleSanctions.coupleId, found.coupleId),
          inArray(coupleSanctions.kind, [...SUSPENDING_KINDS]),
          isNull(coupleSanctions.liftedAt),
        ),
      )
      .limit(1);
    if (!still) await tx.update(couples).set({ status: "active" }).where(eq(couples.id, found.coupleId));
  }
  // A lifted ban no longer refuses its addresses (registration, joining, an e-mail change); another standing ban keeps its own rows.
  if (found.kind === "ban") await tx.delete(bannedEmails).where(eq(bannedEmails.sanctionId, sanctionId));
  await recordModeration(tx, {
    moderatorUserId: moderator.userId,
    action,
    coupleId: found.coupleId,
    target: { type: "sanction", id: sanctionId },
    note: reason,
  });
  await announceSanction(tx, reactions, "lifted", {
    sanctionId,
    coupleId: found.coupleId,
    kind: found.kind as SanctionKind,
    reason: found.reason,
    endsAt: found.endsAt?.toISOString() ?? null,
  });
  return true;
}

/** Every action taken on the couple, newest first (the moderators' couple page; the couple's data export names no moderator). */
export async function sanctionsOf(db: Db, coupleId: string) {
  const rows = await db
    .select({
      ...standingColumns,
      note: coupleSanctions.note,
      createdByUserId: coupleSanctions.createdByUserId,
      liftedAt: coupleSanctions.liftedAt,
      liftReason: coupleSanctions.liftReason,
    })
    .from(coupleSanctions)
    .where(eq(coupleSanctions.coupleId, coupleId))
    .orderBy(desc(coupleSanctions.createdAt));
  return rows.map((row) => ({
    ...shapeStanding(row),
    note: row.note,
    createdByUserId: row.createdByUserId,
    liftedAt: row.liftedAt?.toISOString() ?? null,
    liftReason: row.liftReason,
  }));
}
