import "server-only";
import { and, asc, countDistinct, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, forumPosts, forumReplies, reports, users } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { readReply, visiblePostRow, type ForumActor } from "@/lib/forum/queries";
import { FORUM_LIMITS, isHiddenByReports, type ModerationAction, type ReportTargetType } from "@/lib/forum/rules";
import type { ReportInput } from "@/lib/forum/schemas";
import { excerpt } from "@/lib/forum/text";
import { consumeLimit } from "@/lib/rate-limit";
import { notBlockedBetween } from "./blocks";

/**
 * Reports: one per person and target; content reported by 3 different couples is
 * hidden from all but its own couple until a moderator dismisses (shown again) or removes it
 * ("Removed by a moderator"). A reported couple is not hidden by reports: moderators decide.
 */

const targetNotFound = () => new AppError("NOT_FOUND", "What you reported does not exist or is no longer available.");

/** The target as the reporter may see it; their own couple's content or couple cannot be reported. */
async function reportedCouple(db: Db, actor: ForumActor, type: ReportTargetType, id: string): Promise<string> {
  let coupleId: string | null = null;
  if (type === "post") coupleId = (await visiblePostRow(db, actor, id))?.coupleId ?? null;
  if (type === "reply") coupleId = (await readReply(db, actor, id))?.author.coupleId ?? null;
  if (type === "couple") {
    const [row] = await db
      .select({ id: couples.id })
      .from(couples)
      .where(and(eq(couples.id, id), notBlockedBetween(actor.coupleId, couples.id)))
      .limit(1);
    coupleId = row?.id ?? null;
  }
  if (!coupleId) throw targetNotFound();
  if (coupleId === actor.coupleId) throw new AppError("VALIDATION_ERROR", "You cannot report your own couple or its posts.");
  return coupleId;
}

const contentTable = (type: ReportTargetType) => (type === "post" ? forumPosts : type === "reply" ? forumReplies : null);

/** `POST /api/reports`: 201 once, 409 ALREADY_REPORTED after; the third couple's report hides the content. */
export async function reportTarget(db: Db, actor: ForumActor, input: ReportInput): Promise<{ id: string }> {
  const state = await consumeLimit(db, FORUM_LIMITS.reportsPerUser, actor.userId);
  if (!state.allowed)
    throw new AppError("RATE_LIMITED", "Too many requests. Please try again later.", { retryAfterSeconds: state.retryAfterSeconds });
  return db.transaction(async (tx) => {
    await reportedCouple(tx, actor, input.targetType, input.targetId);
    const [row] = await tx
      .insert(reports)
      .values({
        reporterUserId: actor.userId,
        reporterCoupleId: actor.coupleId,
        targetType: input.targetType,
        targetId: input.targetId,
        reason: input.reason,
        note: input.note ?? null,
      })
      .onConflictDoNothing()
      .returning({ id: reports.id });
    if (!row) throw new AppError("ALREADY_REPORTED", "You have already reported this.");
    const table = contentTable(input.targetType);
    if (table) {
      const [{ couplesReporting } = { couplesReporting: 0 }] = await tx
        .select({ couplesReporting: countDistinct(reports.reporterCoupleId) })
        .from(reports)
        .where(and(eq(reports.targetType, input.targetType), eq(reports.targetId, input.targetId), eq(reports.status, "open")));
      if (isHiddenByReports(couplesReporting))
        await tx
          .update(table)
          .set({ hiddenAt: sql`now()` })
          .where(and(eq(table.id, input.targetId), isNull(table.hiddenAt)));
    }
    return row;
  });
}

export type OpenReport = {
  id: string;
  targetType: ReportTargetType;
  targetId: string;
  reason: string;
  note: string | null;
  createdAt: string;
  reporter: { userId: string; firstName: string };
  /** What was reported, as moderators see it: the words even when hidden. */
  content: { title: string | null; body: string; postId: string | null; coupleId: string; coupleName: string } | null;
};

/** The moderation queue: open reports, oldest first, each with its content (one query per kind, not per row). */
export async function listOpenReports(db: Db, limit = 100): Promise<OpenReport[]> {
  const rows = await db
    .select({
      id: reports.id,
      targetType: reports.targetType,
      targetId: reports.targetId,
      reason: reports.reason,
      note: reports.note,
      createdAt: reports.createdAt,
      reporterUserId: users.id,
      reporterFirstName: users.firstName,
    })
    .from(reports)
    .innerJoin(users, eq(users.id, reports.reporterUserId))
    .where(eq(reports.status, "open"))
    .orderBy(asc(reports.createdAt))
    .limit(limit);
  const ids = (type: ReportTargetType) => rows.filter((row) => row.targetType === type).map((row) => row.targetId);
  const [posts, replies, reported] = await Promise.all([
    ids("post").length
      ? db
          .select({
            id: forumPosts.id,
            title: forumPosts.title,
            body: forumPosts.body,
            postId: forumPosts.id,
            coupleId: couples.id,
            coupleName: couples.coupleName,
          })
          .from(forumPosts)
          .innerJoin(couples, eq(couples.id, forumPosts.coupleId))
          .where(inArray(forumPosts.id, ids("post")))
      : [],
    ids("reply").length
      ? db
          .select({
            id: forumReplies.id,
            title: sql<null>`null`,
            body: forumReplies.body,
            postId: forumReplies.postId,
            coupleId: couples.id,
            coupleName: couples.coupleName,
          })
          .from(forumReplies)
          .innerJoin(couples, eq(couples.id, forumReplies.coupleId))
          .where(inArray(forumReplies.id, ids("reply")))
      : [],
    ids("couple").length
      ? db
          .select({
            id: couples.id,
            title: couples.coupleName,
            body: sql<string>`coalesce(${couples.bio}, '')`,
            postId: sql<null>`null`,
            coupleId: couples.id,
            coupleName: couples.coupleName,
          })
          .from(couples)
          .where(inArray(couples.id, ids("couple")))
      : [],
  ]);
  const content = new Map([...posts, ...replies, ...reported].map((row) => [row.id, row]));
  return rows.map((row) => {
    const found = content.get(row.targetId);
    return {
      id: row.id,
      targetType: row.targetType,
      targetId: row.targetId,
      reason: row.reason,
      note: row.note,
      createdAt: row.createdAt.toISOString(),
      reporter: { userId: row.reporterUserId, firstName: row.reporterFirstName },
      content: found
        ? {
            title: found.title,
            body: excerpt(found.body, 1000),
            postId: found.postId,
            coupleId: found.coupleId,
            coupleName: found.coupleName,
          }
        : null,
    };
  });
}

/**
 * A moderator's decision on a report, applied to every open report of the same target:
 * dismiss shows hidden content again; remove marks a post or reply "Removed by a moderator"
 * and takes a couple out of every list (status 'suspended').
 */
export async function resolveReport(db: Db, moderatorUserId: string, reportId: string, action: ModerationAction): Promise<void> {
  await db.transaction(async (tx) => {
    const [report] = await tx
      .select({ targetType: reports.targetType, targetId: reports.targetId })
      .from(reports)
      .where(and(eq(reports.id, reportId), eq(reports.status, "open")))
      .limit(1);
    if (!report) throw new AppError("NOT_FOUND", "This report does not exist or was already reviewed.");
    await tx
      .update(reports)
      .set({ status: action === "dismiss" ? "dismissed" : "removed", reviewedByUserId: moderatorUserId, reviewedAt: sql`now()` })
      .where(and(eq(reports.targetType, report.targetType), eq(reports.targetId, report.targetId), eq(reports.status, "open")));
    const table = contentTable(report.targetType);
    if (table) {
      await tx
        .update(table)
        .set(action === "dismiss" ? { hiddenAt: null } : { removedAt: sql`now()`, hiddenAt: null })
        .where(eq(table.id, report.targetId));
    } else if (action === "remove") {
      await tx.update(couples).set({ status: "suspended", isVisible: false }).where(eq(couples.id, report.targetId));
    }
  });
}
