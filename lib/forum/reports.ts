import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { transaction } from "@/db/transaction";
import { couples, forumPosts, forumReplies, reports } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { recordModeration } from "@/lib/safety/moderation-log";
import { assertMayActOn, type Moderator } from "@/lib/safety/moderators";
import { knownTo } from "@/lib/safety/visibility";
import { REPORT_CONTEXT, reportedMessage, reportedMessages, type MessageItem } from "@/lib/messages/queries";
import { MESSAGE_TEXTS } from "@/lib/messages/rules";
import type { SafetyReactions } from "@/lib/safety/reactions";
import { openReports, reportTarget, type OpenReportRow, type ReportedTarget, type ReportedWords } from "@/lib/safety/reports";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { reportedPlanCouple, reportedPlans, type ReportedPlan } from "@/lib/plans/reports";
import { reportedRequestCouple, reportedRequests } from "@/lib/connections/reports";
import { FORUM_TEXTS, type ReportTargetType } from "./rules";
import type { ReportInput } from "./schemas";
import { excerpt } from "@/lib/plain-text";
import type { KeysetPage } from "@/lib/pagination/page";
import { gone } from "./projections";
import { readReply, visiblePostRow } from "./thread";

/**
 * The forum's side of reports (lib/safety/reports.ts files them and holds the moderation
 * decisions): what a report names, resolved as the reporter may see it, and the moderation
 * queue with what was reported.
 */

/**
 * What a report names, as the reporter may see it, with its words kept with the report as
 * reported: a post or a reply while it exists for them, with its couple (none once a deleted
 * member's couple is gone), a message's couple, or the couple itself (its name and 'about us')
 * while the reporter knows it and no block stands between them (lib/safety/visibility.ts
 * `knownTo`: a couple hidden from discovery can still be reported from its posts or their
 * conversation; one hidden from the reporter answers as a missing one), a plan's other couple for one of its four, or the couple that sent a hello to the
 * reporter's couple. Null reads as missing.
 */
async function reported(
  db: Db,
  actor: ActingCouple,
  type: ReportTargetType,
  id: string,
  reactions: readonly SafetyReactions[],
): Promise<ReportedTarget> {
  if (type === "post") {
    const post = await visiblePostRow(db, actor, id);
    return post && { coupleId: post.coupleId, words: gone(post) ? null : { title: post.title, body: post.body } };
  }
  if (type === "reply") {
    const reply = await readReply(db, actor, id);
    // A reply exists for them only in a thread they may read (its post's couple may have blocked theirs).
    if (!reply || !(await visiblePostRow(db, actor, reply.postId))) return null;
    return { coupleId: reply.author.coupleId, words: reply.deleted || reply.removed ? null : { title: null, body: reply.body } };
  }
  if (type === "message") {
    const message = await reportedMessage(db, actor.coupleId, id);
    return (
      message && {
        coupleId: message.coupleId,
        words: message.body === null ? null : { title: null, body: message.body },
        authorUserId: message.authorUserId,
      }
    );
  }
  if (type === "plan") return reportedPlanCouple(db, actor, id);
  if (type === "request") return reportedRequestCouple(db, actor, id);
  const known = await knownTo(db, actor.coupleId, id, reactions);
  if (!known || known.blockedByViewer || known.blocksViewer) return null;
  const [row] = await db.select({ id: couples.id, name: couples.coupleName, bio: couples.bio }).from(couples).where(eq(couples.id, id));
  return row ? { coupleId: row.id, words: coupleWords(row) } : null;
}

/** A couple's words as reported and as the queue compares them: its name and its 'about us'. */
const coupleWords = (couple: { name: string; bio: string | null }): ReportedWords => ({ title: couple.name, body: couple.bio ?? "" });

/** `POST /api/reports`: the target resolved for the reporter, then filed. */
export async function fileReport(
  db: Db,
  actor: ActingCouple,
  input: ReportInput,
  reactions: readonly SafetyReactions[],
): Promise<{ id: string }> {
  return reportTarget(db, actor, input, await reported(db, actor, input.targetType, input.targetId, reactions), reactions);
}

/** What was reported, as moderators see it (the words even when hidden). */
type ReportContent = {
  title: string | null;
  body: string;
  /**
   * Where the content no longer says what was reported: what it says now (`body` null once
   * deleted). Null when unchanged, or when no words were kept with the report.
   */
  changedSince: { title: string | null; body: string | null } | null;
  postId: string | null;
  coupleId: string | null;
  coupleName: string;
};

export type OpenReport = Omit<OpenReportRow, "words" | "reporter"> & {
  /**
   * The queue says who reported first by first name only: their account and couple stay on the
   * server (the plan's row needs the couple, read above); "Deleted member" once their account is deleted.
   */
  reporter: { firstName: string };
  /**
   * What was reported: its words as reported where they were kept, else the content now; null
   * when neither is left. A deleted member's words have no couple left: `coupleId` null,
   * `coupleName` "Deleted member".
   */
  content: ReportContent | null;
};

/**
 * Reported posts or replies with their couple (none for a deleted member's), as moderators see
 * them; a post is its own thread, a reply names its post.
 */
function reportedWritings(db: Db, table: typeof forumPosts | typeof forumReplies, ids: string[]) {
  if (ids.length === 0) return [];
  const post = table === forumPosts;
  return db
    .select({
      id: table.id,
      title: post ? forumPosts.title : sql<null>`null`,
      body: table.body,
      deleted: sql<boolean>`${table.deletedAt} is not null`,
      postId: post ? forumPosts.id : forumReplies.postId,
      coupleId: couples.id,
      coupleName: couples.coupleName,
    })
    .from(table)
    .leftJoin(couples, eq(couples.id, table.coupleId))
    .where(inArray(table.id, ids));
}

/**
 * The words a moderator judges: those reported when they were kept, with the content's words now
 * where they differ (`body` null once deleted); else the content's words now (an erased message's
 * read as deleted). Written words are cut to an excerpt; `shown` keeps a plan's lines as they are.
 */
function judgedWords(
  reported: ReportedWords | null,
  now: { title: string | null; body: string | null; deleted: boolean },
  shown: (body: string) => string = (body) => excerpt(body, 1000),
): Pick<ReportContent, "title" | "body" | "changedSince"> {
  if (!reported) return { title: now.title, body: now.body === null ? MESSAGE_TEXTS.deleted : shown(now.body), changedSince: null };
  const same = !now.deleted && reported.title === now.title && reported.body === now.body;
  const body = now.deleted || now.body === null ? null : shown(now.body);
  return { title: reported.title, body: shown(reported.body), changedSince: same ? null : { title: now.title, body } };
}

/** A plan's words as the queue shows them: its when and where on lines of their own, never cut to an excerpt. */
const planLines = (body: string) => body;

/** A reported message as the queue's content: its words as reported (erased ones read as deleted) and its couple. */
const messageContent = (message: MessageItem, reported: ReportedWords | null): ReportContent => ({
  ...judgedWords(reported, { title: null, body: message.body, deleted: message.deleted }),
  postId: null,
  coupleId: message.author.coupleId,
  coupleName: message.author.coupleName,
});

/** A reported plan as the queue's content: its words as reported (what, when and where), the couple reported. */
const planContent = (plan: ReportedPlan, reported: ReportedWords | null): ReportContent => ({
  ...judgedWords(reported, { ...plan.words, deleted: false }, planLines),
  postId: null,
  coupleId: plan.coupleId,
  coupleName: plan.coupleName ?? FORUM_TEXTS.deletedMember,
});

/** What no longer exists, as the queue's content: its words as reported, deleted since; nothing when none were kept. */
const goneContent = (reported: ReportedWords | null, type: ReportTargetType): ReportContent | null =>
  reported && {
    ...judgedWords(reported, { title: null, body: null, deleted: true }, type === "plan" ? planLines : undefined),
    postId: null,
    coupleId: null,
    coupleName: FORUM_TEXTS.deletedMember,
  };

/**
 * The moderation queue (`GET /api/moderation/reports?cursor=` and /moderation): a page of the open
 * reports the moderator may judge, one row per target (`openReports`), oldest first, each with its
 * content (one query per kind, not per row). Never the reports against the moderator's own couple
 * or a couple their couple reported, nor a target their couple reported (`mayJudge`): another
 * moderator decides them, and who reported a moderator is not theirs to know.
 */
export async function moderationQueue(
  db: Db,
  moderator: Pick<Moderator, "coupleId">,
  cursorText?: string,
): Promise<KeysetPage<OpenReport>> {
  const page = await openReports(db, moderator, cursorText);
  const rows = page.data;
  const ids = (type: ReportTargetType) => rows.filter((row) => row.targetType === type).map((row) => row.targetId);
  const [posts, replies, reported, messages, plans, hellos] = await Promise.all([
    reportedWritings(db, forumPosts, ids("post")),
    reportedWritings(db, forumReplies, ids("reply")),
    ids("couple").length
      ? db
          .select({ id: couples.id, name: couples.coupleName, bio: couples.bio })
          .from(couples)
          .where(inArray(couples.id, ids("couple")))
      : [],
    reportedMessages(db, ids("message")),
    reportedPlans(
      db,
      rows.filter((row) => row.targetType === "plan").map((row) => ({ ...row, reporterCoupleId: row.reporter.coupleId })),
    ),
    reportedRequests(db, ids("request")),
  ]);
  const helloContent = hellos.map(({ note, ...hello }) => ({ ...hello, title: null, body: note, deleted: false, postId: null }));
  const coupleContent = reported.map((couple) => ({
    ...coupleWords(couple),
    id: couple.id,
    deleted: false,
    postId: null,
    coupleId: couple.id,
    coupleName: couple.name,
  }));
  const content = new Map([...posts, ...replies, ...coupleContent, ...helloContent].map((row) => [row.id, row]));
  const withContent = rows.map(({ words, reporter, ...rest }): OpenReport => {
    const row = { ...rest, reporter: { firstName: reporter.firstName ?? FORUM_TEXTS.deletedMember } };
    const context = messages.get(row.targetId);
    if (context) return { ...row, content: messageContent(context.at(-1)!, words) };
    const plan = plans.get(row.id);
    if (plan) return { ...row, content: planContent(plan, words) };
    const found = content.get(row.targetId);
    if (!found) return { ...row, content: goneContent(words, row.targetType) };
    return {
      ...row,
      content: {
        ...judgedWords(words, found),
        postId: found.postId,
        coupleId: found.coupleId,
        coupleName: found.coupleName ?? FORUM_TEXTS.deletedMember,
      },
    };
  });
  return { ...page, data: withContent };
}

/**
 * A moderator opens a reported message's context: the REPORT_CONTEXT messages before it in its
 * conversation and nothing else, oldest first. Opening it is itself on the record; never the
 * moderator's own couple's conversation.
 */
export async function reportContext(db: Db, moderator: Moderator, reportId: string): Promise<MessageItem[]> {
  return transaction(db, async (tx) => {
    const [report] = await tx
      .select({ targetType: reports.targetType, targetId: reports.targetId })
      .from(reports)
      .where(and(eq(reports.id, reportId), eq(reports.targetType, "message")));
    const context = report ? (await reportedMessages(tx, [report.targetId], REPORT_CONTEXT)).get(report.targetId) : undefined;
    if (!report || !context) throw new AppError("NOT_FOUND", "This report does not exist or is not about a message.");
    const coupleId = context.at(-1)!.author.coupleId;
    await assertMayActOn(tx, moderator, coupleId, report);
    await recordModeration(tx, {
      moderatorUserId: moderator.userId,
      action: "context_viewed",
      coupleId,
      target: { type: "report", id: reportId },
    });
    return context;
  });
}
