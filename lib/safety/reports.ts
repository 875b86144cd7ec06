import "server-only";
import { and, asc, countDistinct, eq, inArray, isNotNull, isNull, notExists, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { transaction } from "@/db/transaction";
import { connectionRequests, conversations, forumPosts, forumReplies, messages, plans, reports, users } from "@/db/schema";
import { REPORT_REASON_VALUES } from "@/db/schema/forum-values";
import { AppError } from "@/lib/errors";
import { writeDeletingImages } from "@/lib/images/undeleted";
import { cursorAfter, readCursor, rowsAfter } from "@/lib/pagination/cursor";
import { keysetPage, type KeysetPage } from "@/lib/pagination/page";
import { consumeLimit, limitError } from "@/lib/rate-limit";
import { holdPersonRow } from "@/lib/users/presence";
import { recordModeration } from "./moderation-log";
import { assertMayActOn, mayJudge, type Moderator } from "./moderators";
import { announceHidden, announceResolved, holdNamedFirst, type SafetyReactions } from "./reactions";
import { decidedWith, reportingCouple, reportReviewed } from "./reports-against";
import { lockedCouple } from "./sanctions";
import { heldRuleRestriction, liftRuleRestrictionIfDismissed, restrictIfReportedByMany } from "./spam";
import {
  COUPLE_NOT_REMOVED,
  HELLO_NOT_REMOVED,
  isHiddenByReports,
  QUEUE_COUNT_CAP,
  reasonsByCount,
  REPORT_NOTES_SHOWN,
  REPORT_QUEUE_PAGE_SIZE,
  REPORTS_PER_USER,
  upToCap,
  type ModerationAction,
} from "./rules";

/**
 * Reports: one open report per person and target (reviewed, it may be reported again); content
 * reported by 3 different couples is hidden from all but its own couple until a moderator
 * dismisses (shown again) or removes it ("Removed by a moderator"). A reported couple is not
 * hidden by reports: moderators decide. What a report names is resolved by its caller
 * (lib/forum/reports.ts: a post, a reply, a message, a couple, a plan or a hello as the reporter
 * may see it, with the words they saw), so this module reads no content of its own.
 */

/** Who reports: a person of a couple. */
export type Reporter = { userId: string; coupleId: string };
/** A report as its reporter files it (`POST /api/reports`, parsed by lib/forum/schemas.ts `reportSchema`). */
export type ReportInput = Pick<typeof reports.$inferInsert, "targetType" | "targetId" | "reason" | "note">;
type ReportTargetType = ReportInput["targetType"];

const targetNotFound = () => new AppError("NOT_FOUND", "What you reported does not exist or is no longer available.");

const contentTable = (type: ReportTargetType) => (type === "post" ? forumPosts : type === "reply" ? forumReplies : null);

/**
 * A target's words as reported: a post's title and body, a reply's or a message's body, a couple's
 * name and 'about us', a plan's what, when and where (lib/plans/reports.ts), a hello's note.
 */
export type ReportedWords = { title: string | null; body: string };

/**
 * What a report names, as the caller resolved it for the reporter: the couple it belongs to (or
 * is), null once that couple is gone (a deleted member's post or reply: its words stay, and can be
 * reported), and the words the reporter saw, kept with the report (moderators judge what was
 * reported, not what an edit made of it since), with their author where their account's deletion
 * erases them (a message's, a hello's: `eraseReportedWordsOf`); or no target at all when the
 * reporter may not see it, which reads as missing.
 */
export type ReportedTarget = { coupleId: string | null; words?: ReportedWords | null; authorUserId?: string | null } | null;

/**
 * `POST /api/reports`: 201, or 409 ALREADY_REPORTED while the person's report of it is open (once
 * reviewed, a new report is a new case); the third couple's report hides the content (and
 * restricts a couple reported for messages or hellos), and the features withdraw what quoted it
 * (`hiddenByReports`, lib/forum/safety.ts).
 */
export async function reportTarget(
  db: Db,
  reporter: Reporter,
  input: ReportInput,
  target: ReportedTarget,
  reactions: readonly SafetyReactions[],
): Promise<{ id: string }> {
  const state = await consumeLimit(db, REPORTS_PER_USER, reporter.userId);
  if (!state.allowed) throw limitError(REPORTS_PER_USER, state.retryAfterSeconds);
  if (!target) throw targetNotFound();
  if (target.coupleId === reporter.coupleId) throw new AppError("VALIDATION_ERROR", "You cannot report your own couple or its posts.");
  return transaction(db, async (tx) => {
    await holdReportedWords(tx, input.targetType, target);
    const [row] = await tx
      .insert(reports)
      .values({
        reporterUserId: reporter.userId,
        reporterCoupleId: reporter.coupleId,
        targetType: input.targetType,
        targetId: input.targetId,
        reason: input.reason,
        note: input.note ?? null,
        reportedTitle: target.words?.title ?? null,
        reportedBody: target.words?.body ?? null,
      })
      .onConflictDoNothing()
      .returning({ id: reports.id });
    if (!row) throw new AppError("ALREADY_REPORTED", "You have already reported this.");
    const table = contentTable(input.targetType);
    if (table) {
      // This report may hide it, and the features react (announceHidden): the rows they name first.
      await holdNamedFirst(tx, reactions, { targetType: input.targetType, targetId: input.targetId });
      // The hiding rule counts under the content's lock: of two reports at one instant, the later counts both.
      await tx.select({ id: table.id }).from(table).where(eq(table.id, input.targetId)).for("update");
      const [{ couplesReporting } = { couplesReporting: 0 }] = await tx
        .select({ couplesReporting: countDistinct(reportingCouple(reports)) })
        .from(reports)
        .where(and(eq(reports.targetType, input.targetType), eq(reports.targetId, input.targetId), eq(reports.status, "open")));
      if (isHiddenByReports(couplesReporting)) {
        const hid = await tx
          .update(table)
          .set({ hiddenAt: sql`now()` })
          .where(and(eq(table.id, input.targetId), isNull(table.hiddenAt)))
          .returning({ id: table.id });
        if (hid.length > 0) await announceHidden(tx, reactions, { targetType: input.targetType, targetId: input.targetId });
      }
    }
    // The spam rule: a couple whose messages or hellos several couples reported is restricted until a moderator decides.
    if (["message", "request", "couple"].includes(input.targetType) && target.coupleId)
      await restrictIfReportedByMany(tx, target.coupleId, reactions);
    return row;
  });
}

/**
 * Account deletion erases the copies of words it erases (`eraseReportedWordsOf`), as it finds them:
 * one committed after it would stay. So a person's words (a message's, a hello's) are copied under
 * their author's row key-share (what a foreign key's check takes), and a couple's own under the
 * couple's lock the spam rule takes next anyway (lockedCouple: its partners' rows, then the couple,
 * the order a deletion takes them): a deletion under way is waited for, and once it has taken them,
 * what was reported no longer exists. Words no deletion erases (a post's, a reply's, a plan's) take no lock.
 */
async function holdReportedWords(tx: Db, type: ReportTargetType, target: NonNullable<ReportedTarget>): Promise<void> {
  if (!target.words) return;
  if (target.authorUserId) await holdPersonRow(tx, target.authorUserId, targetNotFound);
  else if (type === "couple" && target.coupleId && !(await lockedCouple(tx, target.coupleId))) throw targetNotFound();
}

/**
 * Before a decision writes a report of words an account's deletion erases with their copies kept
 * with reports (a message's, a hello's: `eraseReportedWordsOf`): their author's row key-share, the
 * order the deletion takes them (the person, their words, then those reports), so a deletion under
 * way is waited for and the two never wait on each other. An author gone already holds nothing.
 */
async function holdErasedWordsAuthor(tx: Db, { targetType, targetId }: Pick<ReportInput, "targetType" | "targetId">): Promise<void> {
  const [words] =
    targetType === "message"
      ? await tx.select({ authorUserId: messages.authorUserId }).from(messages).where(eq(messages.id, targetId))
      : targetType === "request"
        ? await tx
            .select({ authorUserId: connectionRequests.sentByUserId })
            .from(connectionRequests)
            .where(eq(connectionRequests.id, targetId))
        : [];
  if (words?.authorUserId) await tx.select({ id: users.id }).from(users).where(eq(users.id, words.authorUserId)).for("key share");
}

/**
 * Account deletion: the words kept with reports go where the words they copy go. Those of the
 * person's messages and of the hellos they sent (lib/connections/service.ts eraseRequestNotes) go,
 * as do those of their couple when it goes with them (`couple.erased`); those of their posts and
 * replies stay, as the posts and replies do, signed "Deleted member", and a plan's (what, when and
 * where, never its note: lib/plans/reports.ts) as the plan does. Others' words stay. Before the
 * person's rows go: it finds their words by their id.
 */
export async function eraseReportedWordsOf(tx: Db, userId: string, couple: { id: string; erased: boolean } | null): Promise<void> {
  const theirs = [
    and(
      eq(reports.targetType, "message"),
      inArray(reports.targetId, tx.select({ id: messages.id }).from(messages).where(eq(messages.authorUserId, userId))),
    ),
  ];
  if (couple) {
    // Their hellos, by their couple's outgoing index (a hello goes with its sender's couple).
    const hellos = tx
      .select({ id: connectionRequests.id })
      .from(connectionRequests)
      .where(and(eq(connectionRequests.fromCoupleId, couple.id), eq(connectionRequests.sentByUserId, userId)));
    theirs.push(and(eq(reports.targetType, "request"), inArray(reports.targetId, hellos)));
  }
  if (couple?.erased) theirs.push(and(eq(reports.targetType, "couple"), eq(reports.targetId, couple.id)));
  // One statement per kind: each reads reports_target_idx (an OR of them would read every report).
  for (const copies of theirs) await tx.update(reports).set({ reportedTitle: null, reportedBody: null }).where(copies);
}

/**
 * Account deletion: the person's reports outlive them, open or reviewed (guide: deleting an
 * account takes nobody else's words; moderators judge what was reported, and a couple's record
 * still counts what it was reported for), without them: their id and their note (their own words)
 * go; their couple's id goes when the couple goes with them (its foreign key). The reported words,
 * someone else's, stay as `eraseReportedWordsOf` leaves them. Before the person's row goes: its
 * foreign key alone would clear the id and keep the note.
 */
export async function anonymiseReportsOf(tx: Db, userId: string): Promise<void> {
  await tx.update(reports).set({ reporterUserId: null, note: null }).where(eq(reports.reporterUserId, userId));
}

/**
 * A row of the moderation queue: one decision's open reports (a target's, against one couple:
 * `decidedWith`), named by the oldest of them, which the decisions and 'Act on the couple' take and
 * which settles them all. lib/forum/reports.ts adds what was reported.
 */
export type OpenReportRow = {
  /** The oldest open report's id. */
  id: string;
  targetType: ReportTargetType;
  targetId: string;
  /** When the oldest open report was filed: the row's place in the queue. */
  createdAt: string;
  /**
   * Its open reports, and the couples that filed them, counted among its oldest QUEUE_COUNT_CAP + 1
   * (`reportCounts`): exact below the cap; `capped` when there are more, then each count (reasons
   * and notes too) is at least what it says, none above the cap, and the row reads '100+'.
   */
  reports: number;
  couples: number;
  capped: boolean;
  /** Why, the most given first. */
  reasons: { reason: ReportReason; count: number }[];
  /**
   * The oldest report's reporter: their id and first name null once their account is deleted (the
   * report outlives it: `anonymiseReportsOf`), their couple's once it went with its last partner.
   */
  reporter: { userId: string | null; firstName: string | null; coupleId: string | null };
  /** The oldest REPORT_NOTES_SHOWN notes of `notesTotal`, each with its reporter's first name. */
  notes: { firstName: string; note: string }[];
  notesTotal: number;
  /** The words as the first reporter saw them; null when none were kept, and once erased with their author (`eraseReportedWordsOf`). */
  words: ReportedWords | null;
};
type ReportReason = (typeof reports.$inferSelect)["reason"];

/** The queue's cursors are signed for it (exported for the bench, which starts a page at a given report). */
export const QUEUE_CONTEXT = "moderation-reports";
const INVALID_CURSOR = "This page of the queue is no longer available. Please reload.";

/** Another open report beside the queue's row, and the row itself beside its reports. */
const older = alias(reports, "older_report");
const row = alias(reports, "queue_row");

/**
 * The open reports the moderator may judge (`mayJudge`), one row per decision, oldest first, a
 * keyset page at a time. A row is the oldest open report of its decision (none older in it), read
 * in the order of reports_open_idx, so a target reported a hundred times is one row and the page
 * goes on past it; then its counts and first notes, for the page's rows only.
 */
export async function openReports(db: Db, moderator: Pick<Moderator, "coupleId">, cursorText?: string): Promise<KeysetPage<OpenReportRow>> {
  const cursor = readCursor(QUEUE_CONTEXT, cursorText, INVALID_CURSOR);
  const rows = await db
    .select({
      id: reports.id,
      targetType: reports.targetType,
      targetId: reports.targetId,
      reportedTitle: reports.reportedTitle,
      reportedBody: reports.reportedBody,
      createdAt: reports.createdAt,
      reporterUserId: users.id,
      reporterFirstName: users.firstName,
      reporterCoupleId: reports.reporterCoupleId,
    })
    .from(reports)
    .leftJoin(users, eq(users.id, reports.reporterUserId))
    .where(
      and(
        eq(reports.status, "open"),
        mayJudge(moderator),
        cursor ? rowsAfter(reports.createdAt, reports.id, cursor, "asc") : undefined,
        notExists(
          db
            .select({ id: older.id })
            .from(older)
            .where(and(decidedWith(reports, older), sql`(${older.createdAt}, ${older.id}) < (${reports.createdAt}, ${reports.id})`)),
        ),
      ),
    )
    .orderBy(asc(reports.createdAt), asc(reports.id))
    .limit(REPORT_QUEUE_PAGE_SIZE + 1);
  const ids = rows.slice(0, REPORT_QUEUE_PAGE_SIZE).map((found) => found.id);
  const [counts, notes] = ids.length === 0 ? [[], []] : await Promise.all([reportCounts(db, ids), firstNotes(db, ids)]);
  return keysetPage(
    rows,
    REPORT_QUEUE_PAGE_SIZE,
    ({ reporterUserId, reporterFirstName, reporterCoupleId, reportedTitle, reportedBody, createdAt, ...found }) => {
      const own = counts.filter((count) => count.id === found.id);
      const total = own.find((count) => count.reason === null);
      const { count: reportCount, capped } = upToCap(total?.reports ?? 1);
      return {
        ...found,
        createdAt: createdAt.toISOString(),
        reports: reportCount,
        couples: upToCap(total?.couples ?? 1).count,
        capped,
        reasons: reasonsByCount(
          own.flatMap(({ reason, reports: count }) => (reason === null ? [] : [{ reason, count: upToCap(count).count }])),
          REPORT_REASON_VALUES,
        ),
        reporter: { userId: reporterUserId, firstName: reporterFirstName, coupleId: reporterCoupleId },
        notes: notes.filter((note) => note.id === found.id).map(({ firstName, note }) => ({ firstName, note: note ?? "" })),
        notesTotal: upToCap(total?.notes ?? 0).count,
        words: reportedBody === null ? null : { title: reportedTitle, body: reportedBody },
      };
    },
    (last) => cursorAfter(QUEUE_CONTEXT, { sortKey: last.createdAt, id: last.id }),
  );
}

/**
 * The queue rows' open reports counted: by reason, and in all (`reason` null) with their couples and
 * notes. One read, bounded: each row's oldest QUEUE_COUNT_CAP + 1 reports in the order of
 * reports_open_target_idx (a LIMITed index scan, however many thousands a burst filed), so a count
 * of CAP + 1 means more than the cap. The couples are the distinct ones among those reports read,
 * not among all: below the cap the same, past it at least that many (the row says so, '51+').
 */
function reportCounts(db: Db, ids: string[]) {
  const counted = db
    .select({ id: reports.id, reason: reports.reason, reporterCoupleId: reports.reporterCoupleId, note: reports.note })
    .from(reports)
    .where(decidedWith(row))
    .orderBy(asc(reports.createdAt), asc(reports.id))
    .limit(QUEUE_COUNT_CAP + 1)
    .as("counted");
  return db
    .select({
      id: row.id,
      reason: sql<ReportReason | null>`${counted.reason}`,
      reports: sql<number>`count(*)::int`,
      couples: sql<number>`count(distinct ${reportingCouple(counted)})::int`,
      notes: sql<number>`count(${counted.note})::int`,
    })
    .from(row)
    .innerJoinLateral(counted, sql`true`)
    .where(inArray(row.id, ids))
    .groupBy(sql`grouping sets ((${row.id}, ${counted.reason}), (${row.id}))`);
}

/** The queue rows' oldest REPORT_NOTES_SHOWN notes each, with their reporters' first names. One read. */
function firstNotes(db: Db, ids: string[]) {
  const noted = db
    .select({ note: reports.note, firstName: users.firstName, createdAt: reports.createdAt, reportId: reports.id })
    .from(reports)
    .innerJoin(users, eq(users.id, reports.reporterUserId))
    .where(and(decidedWith(row), isNotNull(reports.note)))
    .orderBy(asc(reports.createdAt), asc(reports.id))
    .limit(REPORT_NOTES_SHOWN)
    .as("noted");
  return db
    .select({ id: row.id, note: noted.note, firstName: noted.firstName })
    .from(row)
    .innerJoinLateral(noted, sql`true`)
    .where(inArray(row.id, ids))
    .orderBy(asc(row.id), asc(noted.createdAt), asc(noted.reportId));
}

/**
 * The couple a report's target belongs to (or is); null once that couple is gone. A plan is both
 * couples': its report names the one that did not file it.
 */
async function reportedCoupleId(
  tx: Db,
  { targetType, targetId, reporterCoupleId }: { targetType: ReportTargetType; targetId: string; reporterCoupleId: string | null },
): Promise<string | null> {
  if (targetType === "couple") return targetId;
  if (targetType === "plan") {
    const [plan] = await tx
      .select({ low: conversations.coupleLowId, high: conversations.coupleHighId })
      .from(plans)
      .innerJoin(conversations, eq(conversations.id, plans.conversationId))
      .where(eq(plans.id, targetId));
    if (!plan) return null;
    // A reporting couple gone with its last partner is null in the report and in the conversation alike.
    return plan.low === reporterCoupleId ? plan.high : plan.high === reporterCoupleId ? plan.low : null;
  }
  const [row] =
    targetType === "message"
      ? await tx.select({ coupleId: messages.authorCoupleId }).from(messages).where(eq(messages.id, targetId))
      : targetType === "request"
        ? await tx.select({ coupleId: connectionRequests.fromCoupleId }).from(connectionRequests).where(eq(connectionRequests.id, targetId))
        : await tx
            .select({ coupleId: contentTable(targetType)!.coupleId })
            .from(contentTable(targetType)!)
            .where(eq(contentTable(targetType)!.id, targetId));
  return row?.coupleId ?? null;
}

/**
 * A moderator's decision on a report, applied to the open reports of the same target against the
 * same couple (`decidedWith`: of a plan, only those its reporter's couple filed): dismiss shows
 * hidden content again; remove marks a post or reply "Removed by a moderator" and cancels a plan
 * still to come (its reaction, lib/plans/safety.ts). A reported couple is not
 * removed (400 COUPLE_NOT_REMOVED), nor a reported hello (HELLO_NOT_REMOVED, its couple declines
 * it): the couple is acted on as a couple (sanctions.ts, with a guideline,
 * told, appealable, liftable). Never by a moderator whose own couple it concerns (`assertMayActOn`);
 * written to the moderation log. The features react in the same transaction (`reactions`,
 * lib/registry/safety.ts: a removed message is erased, 'This message was deleted').
 */
export async function resolveReport(
  db: Db,
  moderator: Moderator,
  reportId: string,
  action: ModerationAction,
  reactions: readonly SafetyReactions[],
): Promise<void> {
  await writeDeletingImages(db, async (tx) => {
    const [report] = await tx
      .select({
        targetType: reports.targetType,
        targetId: reports.targetId,
        reason: reports.reason,
        reporterCoupleId: reports.reporterCoupleId,
      })
      .from(reports)
      .where(and(eq(reports.id, reportId), eq(reports.status, "open")))
      .limit(1);
    if (!report) throw reportReviewed();
    await holdErasedWordsAuthor(tx, report);
    // Before the content is written, the rows the features' reactions name (announceResolved).
    await holdNamedFirst(tx, reactions, report);
    if (action === "remove" && report.targetType === "couple") throw new AppError("VALIDATION_ERROR", COUPLE_NOT_REMOVED);
    if (action === "remove" && report.targetType === "request") throw new AppError("VALIDATION_ERROR", HELLO_NOT_REMOVED);
    const coupleId = await reportedCoupleId(tx, report);
    await assertMayActOn(tx, moderator, coupleId, report);
    // A dismissal may lift the spam rule's restriction (below): its couple is taken before the reports.
    const ruleMade = action === "dismiss" && coupleId ? await heldRuleRestriction(tx, coupleId) : undefined;
    const closed = await tx
      .update(reports)
      .set({ status: action === "dismiss" ? "dismissed" : "removed", reviewedByUserId: moderator.userId, reviewedAt: sql`now()` })
      .where(decidedWith(report))
      .returning({ id: reports.id });
    // One decision per report: one decided meanwhile (this target's, at the same instant) is reviewed, as after it.
    if (!closed.some((row) => row.id === reportId)) throw reportReviewed();
    const table = contentTable(report.targetType);
    if (table) {
      await tx
        .update(table)
        .set(action === "dismiss" ? { hiddenAt: null } : { removedAt: sql`now()`, hiddenAt: null })
        .where(eq(table.id, report.targetId));
    }
    await recordModeration(tx, {
      moderatorUserId: moderator.userId,
      action: action === "dismiss" ? "report_dismissed" : "report_removed",
      coupleId,
      target: { type: report.targetType, id: report.targetId },
      reason: report.reason,
    });
    // Dismissed reports may leave the spam rule's restriction without the reports that made it.
    if (ruleMade && coupleId) await liftRuleRestrictionIfDismissed(tx, moderator, coupleId, ruleMade, reactions);
    const erasedPhotos = await announceResolved(tx, reactions, { targetType: report.targetType, targetId: report.targetId, action });
    return { result: undefined, deletedKeys: erasedPhotos };
  });
}
