import "server-only";
import { and, asc, eq, isNull, or, sql, type Placeholder, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { dateOf, jsonArray, jsonObject } from "@/db/json";
import { placeholderSql, preparedPer } from "@/db/prepared";
import { couples, forumPosts, forumReplies, users } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { cursorAfter, readCursor, rowsAfter } from "@/lib/pagination/cursor";
import type { KeysetPagination } from "@/lib/pagination/page";
import { notBlockedBetween } from "@/lib/safety/blocks";
import { FORUM_TEXTS, showsEdited, type ReactionCounts, type ReactionKind } from "./rules";
import { FORUM_MESSAGES, type ThreadQuery } from "./schemas";
import { excerpt } from "@/lib/plain-text";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { inPost, inReply, mentionLookup, mentionRows, targetMentions, type MentionRow } from "./mentions";
import { onPost, onReply, reactionsByTarget, reactionsOn, targetReactions, type ReactionRow } from "./reactions";
import {
  author,
  authorColumns,
  gone,
  postColumns,
  selectPosts,
  shapePost,
  type ForumMention,
  type ForumPostDetail,
  type ForumReply,
  type PostRow,
  type ReactedBy,
} from "./projections";

/** A post that is not there, or not for this reader: the one answer, whichever. */
export const notFound = () => new AppError("NOT_FOUND", "This post does not exist or is no longer available.");

/** Prepared: every opening of a thread, and every change to a post, reads it. */
const postNotBlocked = preparedPer((db) =>
  selectPosts(db, placeholderSql("coupleId"))
    .where(and(eq(forumPosts.id, sql.placeholder("postId")), notBlockedBetween(placeholderSql("coupleId"), forumPosts.coupleId)))
    .limit(1)
    .prepare("forum_post_not_blocked"),
);

/**
 * A post as the actor may see it, or null: a blocked couple's post does not exist for them; a
 * post hidden by reports exists only for its own couple; a deleted or removed one only while it
 * has replies (its thread stays). Only the couple is read: a mention asks it for the couple named.
 */
export async function visiblePostRow(db: Db, actor: Pick<ActingCouple, "coupleId">, postId: string): Promise<PostRow | null> {
  const [row] = await postNotBlocked(db).execute({ postId, coupleId: actor.coupleId });
  return row && postShownTo(row, actor) ? row : null;
}

/** Of a post not blocked either way: hidden by reports, only its own couple sees it; gone, only while it has replies. */
function postShownTo(row: PostRow, actor: Pick<ActingCouple, "coupleId">): boolean {
  if (row.hiddenAt && row.coupleId !== actor.coupleId) return false;
  return !(gone(row) && row.replyCount === 0);
}

/** A thread's reactions and mentions, read once for the post and its replies. */
type ThreadExtras = [ReturnType<typeof reactionsByTarget>, ReturnType<typeof mentionLookup>];

/** A post shaped for the actor with its reactions (who reacted too) and mentions. */
function postDetail(row: PostRow, [reactionsOf, mentions]: ThreadExtras): ForumPostDetail {
  const { reactedBy, ...counts } = reactionsOf({ postId: row.id, replyId: null });
  return { ...shapePost(row, { ...counts, mentions: mentions({ postId: row.id, replyId: null }) }), reactedBy };
}

/** One post, shaped for the actor (the answer of create and patch). */
export async function readPost(db: Db, actor: ActingCouple, postId: string): Promise<ForumPostDetail> {
  const row = await visiblePostRow(db, actor, postId);
  if (!row) throw notFound();
  const target = { postId, replyId: null };
  return postDetail(row, await Promise.all([targetReactions(db, actor, target), targetMentions(db, actor, target)]));
}

const quoted = alias(forumReplies, "quoted");
const quotedAuthor = alias(users, "quoted_author");
const quotedCouple = alias(couples, "quoted_couple");

/** A reply as a thread shows it, with its author (`authorColumns`) and the reply it quotes. */
type ReplyRow = Pick<PostRow, keyof ReturnType<typeof authorColumns>> & {
  id: string;
  postId: string;
  body: string;
  createdAt: Date;
  editedAt: Date | null;
  deletedAt: Date | null;
  hiddenAt: Date | null;
  removedAt: Date | null;
  quoteId: string | null;
  quoteBody: string | null;
  quoteGone: boolean;
  quoteFirstName: string | null;
  quoteCoupleName: string | null;
};

/** A reply as its JSON row carries it: times as text. */
type ReplyJson = Omit<ReplyRow, "createdAt" | "editedAt" | "deletedAt" | "hiddenAt" | "removedAt"> & {
  createdAt: string;
  editedAt: string | null;
  deletedAt: string | null;
  hiddenAt: string | null;
  removedAt: string | null;
};

const replyOf = (json: ReplyJson): ReplyRow => ({
  ...json,
  createdAt: new Date(json.createdAt),
  editedAt: dateOf(json.editedAt),
  deletedAt: dateOf(json.deletedAt),
  hiddenAt: dateOf(json.hiddenAt),
  removedAt: dateOf(json.removedAt),
});

const replyColumns = (viewerCouple: string | SQL) => ({
  id: forumReplies.id,
  postId: forumReplies.postId,
  body: forumReplies.body,
  createdAt: forumReplies.createdAt,
  editedAt: forumReplies.editedAt,
  deletedAt: forumReplies.deletedAt,
  hiddenAt: forumReplies.hiddenAt,
  removedAt: forumReplies.removedAt,
  ...authorColumns(viewerCouple),
  quoteId: quoted.id,
  quoteBody: quoted.body,
  quoteGone: sql<boolean>`(${quoted.deletedAt} is not null or ${quoted.removedAt} is not null or ${quoted.hiddenAt} is not null)`,
  quoteFirstName: quotedAuthor.firstName,
  quoteCoupleName: quotedCouple.coupleName,
});

/** SQL: a reply hidden by reports is there for its own couple only (as a post is, visiblePostRow). */
export const replyShownTo = (viewerCouple: string | SQL) => or(isNull(forumReplies.hiddenAt), eq(forumReplies.coupleId, viewerCouple))!;

/** SQL over forum_replies: those `where` picks that the viewer's couple sees (none of couples blocked either way; replyShownTo). */
const repliesShown = (viewerCouple: string | SQL, where: SQL | undefined) =>
  and(where, notBlockedBetween(viewerCouple, forumReplies.coupleId), replyShownTo(viewerCouple));

/**
 * Replies of a post as the actor sees them, each as one JSON `row` (`replyOf` reads it) with its
 * place `(at, rid)`: none of couples blocked either way; hidden ones only to their own couple
 * (replyShownTo); a deleted member's with neither person nor couple (left joins).
 */
function replyRows(db: Db, viewerCouple: string | SQL, where: SQL | undefined) {
  return db
    .select({
      row: jsonObject<ReplyJson>(replyColumns(viewerCouple)).as("row"),
      at: sql`${forumReplies.createdAt}`.as("at"),
      rid: sql`${forumReplies.id}`.as("rid"),
    })
    .from(forumReplies)
    .leftJoin(users, eq(users.id, forumReplies.authorUserId))
    .leftJoin(couples, eq(couples.id, forumReplies.coupleId))
    .leftJoin(quoted, and(eq(quoted.id, forumReplies.quoteReplyId), notBlockedBetween(viewerCouple, quoted.coupleId)))
    .leftJoin(quotedAuthor, eq(quotedAuthor.id, quoted.authorUserId))
    .leftJoin(quotedCouple, eq(quotedCouple.id, quoted.coupleId))
    .where(repliesShown(viewerCouple, where));
}

/**
 * A thread's page in one statement: the post as the actor may see it (not blocked either way; the
 * rest of the rule, postShownTo, on the row), a page of its replies, and the reactions and
 * mentions of all of them, each list as JSON (a row per reply or reaction cost the driver and
 * Drizzle's mapping more than the database's work). The viewer's couple is bound once, in the
 * statement's own CTE that every rule reads, and the post's id once: the lists follow the row.
 */
function threadStatement(db: Db, viewer: { coupleId: SQL }, postId: SQL, page: { after?: SQL; limit: Placeholder | number }) {
  const viewerRow = db
    .$with("thread_viewer", { coupleId: sql<string>`couple_id`.as("couple_id") })
    .as(sql`select ${viewer.coupleId}::uuid as couple_id`);
  const viewerCouple = sql`(select couple_id from ${viewerRow})`;
  const onPage = and(eq(forumReplies.postId, forumPosts.id), page.after);
  const replies = replyRows(db, viewerCouple, onPage).orderBy(asc(forumReplies.createdAt), asc(forumReplies.id)).limit(page.limit);
  // The reactions and mentions of the post and of this page's replies alone, each found by its
  // own index: a long thread's others are never read (a page's ids chosen as its replies are).
  const pageIds = db
    .select({ id: forumReplies.id })
    .from(forumReplies)
    .where(repliesShown(viewerCouple, onPage))
    .orderBy(asc(forumReplies.createdAt), asc(forumReplies.id))
    .limit(page.limit);
  const reactions = reactionsOn(db, viewerCouple, or(onPost(forumPosts.id), onReply(sql`any(array(${pageIds}))`))!);
  const mentions = mentionRows(db, viewerCouple, or(inPost(forumPosts.id), inReply(sql`any(array(${pageIds}))`))!);
  return db
    .with(viewerRow)
    .select({
      ...postColumns(viewerCouple),
      replies: jsonArray<ReplyJson>(replies, sql`t.at, t.rid`),
      reactions: jsonArray<ReactionRow>(reactions, sql`t.at`),
      mentions: jsonArray<MentionRow>(mentions, sql`1`),
    })
    .from(forumPosts)
    .leftJoin(users, eq(users.id, forumPosts.authorUserId))
    .leftJoin(couples, eq(couples.id, forumPosts.coupleId))
    .where(and(eq(forumPosts.id, postId), notBlockedBetween(viewerCouple, forumPosts.coupleId)))
    .limit(1);
}

/** Prepared: the first page of a thread, on every opening. */
const firstPage = preparedPer((db) =>
  threadStatement(db, { coupleId: placeholderSql("coupleId") }, placeholderSql("postId"), { limit: sql.placeholder("limit") }).prepare(
    "forum_thread",
  ),
);

function shapeReply(
  row: ReplyRow,
  extras: { reactions: ReactionCounts; myReactions: ReactionKind[]; reactedBy: ReactedBy; mentions: ForumMention[] },
): ForumReply {
  const blank = gone(row);
  return {
    id: row.id,
    postId: row.postId,
    body: blank ? (row.removedAt ? FORUM_TEXTS.removedByModerator : "") : row.body,
    quote:
      row.quoteId === null
        ? null
        : {
            id: row.quoteId,
            author: row.quoteFirstName && row.quoteCoupleName ? { firstName: row.quoteFirstName, coupleName: row.quoteCoupleName } : null,
            excerpt: row.quoteGone ? "" : excerpt(row.quoteBody ?? ""),
            deleted: row.quoteGone,
          },
    author: author(row),
    ...extras,
    mentions: blank ? [] : extras.mentions,
    createdAt: row.createdAt.toISOString(),
    editedAt: showsEdited(row.createdAt, row.editedAt) ? row.editedAt!.toISOString() : null,
    deleted: row.deletedAt !== null,
    removed: row.removedAt !== null,
    hidden: row.hiddenAt !== null,
  };
}

/** One reply as the viewer's couple may see it (`replyRows`), or null. Only the couple is read: a mention asks it for the couple named. */
export async function visibleReplyRow(db: Db, viewer: Pick<ActingCouple, "coupleId">, replyId: string): Promise<ReplyRow | null> {
  const [found] = await replyRows(db, viewer.coupleId, eq(forumReplies.id, replyId)).limit(1);
  return found ? replyOf(found.row) : null;
}

/** One reply, shaped for the actor (the answer of create and patch), or null when they may not see it. */
export async function readReply(db: Db, actor: ActingCouple, replyId: string): Promise<ForumReply | null> {
  const row = await visibleReplyRow(db, actor, replyId);
  if (!row) return null;
  const target = { postId: row.postId, replyId };
  const [reactionsOf, mentions] = await Promise.all([targetReactions(db, actor, target), targetMentions(db, actor, target)]);
  return shapeReply(row, { ...reactionsOf(target), mentions: mentions(target) });
}

/**
 * `GET /api/forum/posts/{id}`: the post and a page of its replies, oldest first. `nextCursor`
 * is the position after the last reply given (also when there is no more yet), so an open page
 * polls with it for replies posted since.
 */
export async function readThread(
  db: Db,
  actor: ActingCouple,
  postId: string,
  query: ThreadQuery,
): Promise<{ post: ForumPostDetail; replies: ForumReply[]; pagination: KeysetPagination }> {
  const context = `thread:${postId}`;
  const after = readCursor(context, query.cursor, FORUM_MESSAGES.cursorInvalid);
  const [found] = after
    ? await threadStatement(db, { coupleId: sql`${actor.coupleId}` }, sql`${postId}`, {
        after: rowsAfter(forumReplies.createdAt, forumReplies.id, after, "asc"),
        limit: query.limit + 1,
      })
    : await firstPage(db).execute({ postId, coupleId: actor.coupleId, limit: query.limit + 1 });
  if (!found || !postShownTo(found, actor)) throw notFound();
  const extras: ThreadExtras = [reactionsByTarget(found.reactions, actor, postId), mentionLookup(found.mentions)];
  const post = postDetail(found, extras);
  const rows = found.replies.map(replyOf);
  const page = rows.slice(0, query.limit);
  const [reactionsOf, mentions] = extras;
  const last = page.at(-1);
  return {
    post,
    replies: page.map((row) =>
      shapeReply(row, { ...reactionsOf({ postId, replyId: row.id }), mentions: mentions({ postId, replyId: row.id }) }),
    ),
    pagination: {
      limit: query.limit,
      hasMore: rows.length > query.limit,
      nextCursor: last ? cursorAfter(context, { sortKey: last.createdAt, id: last.id }) : (query.cursor ?? null),
    },
  };
}
