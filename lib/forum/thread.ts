import "server-only";
import { and, asc, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
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
import { mentionsOf, threadMentions } from "./mentions";
import { threadReactions } from "./reactions";
import {
  author,
  authorColumns,
  gone,
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
  if (!row) return null;
  if (row.hiddenAt && row.coupleId !== actor.coupleId) return null;
  if (gone(row) && row.replyCount === 0) return null;
  return row;
}

/** One post, shaped for the actor (the answer of create, patch and the thread). */
export async function readPost(db: Db, actor: ActingCouple, postId: string, loaded?: ThreadExtras): Promise<ForumPostDetail> {
  const row = await visiblePostRow(db, actor, postId);
  if (!row) throw notFound();
  const [reactionsOf, mentions] =
    loaded ?? (await Promise.all([threadReactions(db, actor, postId), mentionsOf(db, actor, [postId], false)]));
  const { reactedBy, ...counts } = reactionsOf({ postId, replyId: null });
  return { ...shapePost(row, { ...counts, mentions: mentions({ postId, replyId: null }) }), reactedBy };
}

/** A thread's reactions and mentions, read once for the post and its replies. */
type ThreadExtras = [Awaited<ReturnType<typeof threadReactions>>, Awaited<ReturnType<typeof mentionsOf>>];

const quoted = alias(forumReplies, "quoted");
const quotedAuthor = alias(users, "quoted_author");
const quotedCouple = alias(couples, "quoted_couple");

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

/**
 * Replies of a post as the actor sees them: none of couples blocked either way; hidden ones only
 * to their own couple (replyShownTo); a deleted member's with neither person nor couple (left joins).
 */
function replyRows(db: Db, viewerCouple: string | SQL, where: SQL | undefined) {
  return db
    .select(replyColumns(viewerCouple))
    .from(forumReplies)
    .leftJoin(users, eq(users.id, forumReplies.authorUserId))
    .leftJoin(couples, eq(couples.id, forumReplies.coupleId))
    .leftJoin(quoted, and(eq(quoted.id, forumReplies.quoteReplyId), notBlockedBetween(viewerCouple, quoted.coupleId)))
    .leftJoin(quotedAuthor, eq(quotedAuthor.id, quoted.authorUserId))
    .leftJoin(quotedCouple, eq(quotedCouple.id, quoted.coupleId))
    .where(and(where, notBlockedBetween(viewerCouple, forumReplies.coupleId), replyShownTo(viewerCouple)));
}
type ReplyRow = Awaited<ReturnType<typeof replyRows>>[number];

/** Prepared: the first page of a thread's replies, on every opening. */
const firstReplies = preparedPer((db) =>
  replyRows(db, placeholderSql("coupleId"), eq(forumReplies.postId, sql.placeholder("postId")))
    .orderBy(asc(forumReplies.createdAt), asc(forumReplies.id))
    .limit(sql.placeholder("limit"))
    .prepare("forum_thread_first_replies"),
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
  const [row] = await replyRows(db, viewer.coupleId, eq(forumReplies.id, replyId)).limit(1);
  return row ?? null;
}

/** One reply, shaped for the actor (the answer of create and patch), or null when they may not see it. */
export async function readReply(db: Db, actor: ActingCouple, replyId: string): Promise<ForumReply | null> {
  const row = await visibleReplyRow(db, actor, replyId);
  if (!row) return null;
  const [reactionsOf, mentions] = await Promise.all([threadReactions(db, actor, row.postId), threadMentions(db, actor, row.postId)]);
  return shapeReply(row, { ...reactionsOf({ postId: row.postId, replyId }), mentions: mentions({ postId: row.postId, replyId }) });
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
  // The replies are read beside the post; a post the actor may not see answers 404 and they are dropped.
  const [extras, rows] = await Promise.all([
    Promise.all([threadReactions(db, actor, postId), threadMentions(db, actor, postId)]) satisfies Promise<ThreadExtras>,
    after
      ? replyRows(
          db,
          actor.coupleId,
          and(eq(forumReplies.postId, postId), rowsAfter(forumReplies.createdAt, forumReplies.id, after, "asc")),
        )
          .orderBy(asc(forumReplies.createdAt), asc(forumReplies.id))
          .limit(query.limit + 1)
      : firstReplies(db).execute({ postId, coupleId: actor.coupleId, limit: query.limit + 1 }),
  ]);
  const post = await readPost(db, actor, postId, extras);
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
