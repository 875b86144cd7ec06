import "server-only";
import { and, asc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { couples, forumMentions, forumReactions, users } from "@/db/schema";
import { notBlockedBetween } from "@/lib/safety/blocks";
import { REACTED_BY_SHOWN, reactionCounts, signature, type ReactionKind } from "./rules";
import type { ForumActor } from "./actor";
import { noneReacted, type ForumMention, type ReactedBy } from "./shape";

export type Target = { postId: string; replyId: string | null };
const targetKey = (target: Target) => target.replyId ?? `post:${target.postId}`;

/**
 * SQL: a reaction's couple may be named in "who reacted": an active, visible couple, or the
 * viewer's own. A hidden couple's reactions are counted but never named to other couples.
 */
export const namedReactor = (
  viewerCouple: string | SQL,
  couple: { status: AnyPgColumn; isVisible: AnyPgColumn; id: AnyPgColumn } = couples,
): SQL => sql`((${couple.status} = 'active' and ${couple.isVisible}) or ${couple.id} = ${viewerCouple})`;

/** Counts, the viewer's own kinds and who reacted, for a thread's post and replies (one query). */
export async function threadReactions(db: Db, actor: ForumActor, postId: string) {
  const rows = await db
    .select({
      replyId: forumReactions.replyId,
      kind: forumReactions.kind,
      userId: forumReactions.userId,
      firstName: users.firstName,
      coupleName: couples.coupleName,
      named: sql<boolean>`${namedReactor(actor.coupleId)}`,
    })
    .from(forumReactions)
    .innerJoin(users, eq(users.id, forumReactions.userId))
    .innerJoin(couples, eq(couples.id, forumReactions.coupleId))
    .where(and(eq(forumReactions.postId, postId), notBlockedBetween(actor.coupleId, forumReactions.coupleId)))
    .orderBy(asc(forumReactions.createdAt));
  const byTarget = new Map<string, { counts: { kind: ReactionKind; count: number }[]; mine: ReactionKind[]; by: ReactedBy }>();
  for (const row of rows) {
    const key = targetKey({ postId, replyId: row.replyId });
    let entry = byTarget.get(key);
    if (!entry) {
      entry = { counts: [], mine: [], by: noneReacted() };
      byTarget.set(key, entry);
    }
    entry.counts.push({ kind: row.kind, count: 1 });
    if (row.named && entry.by[row.kind].length < REACTED_BY_SHOWN) entry.by[row.kind].push(signature(row.firstName, row.coupleName));
    if (row.userId === actor.userId) entry.mine.push(row.kind);
  }
  return (target: Target) => {
    const entry = byTarget.get(targetKey(target));
    return {
      reactions: reactionCounts(entry?.counts ?? []),
      myReactions: entry?.mine ?? [],
      reactedBy: entry?.by ?? noneReacted(),
    };
  };
}

/** The validated mentions of posts (and, with replies, of replies), without couples blocked either way. */
export async function mentionsOf(db: Db, actor: ForumActor, postIds: string[], withReplies: boolean) {
  if (postIds.length === 0) return () => [];
  const rows = await db
    .select({ postId: forumMentions.postId, replyId: forumMentions.replyId, coupleId: couples.id, name: couples.coupleName })
    .from(forumMentions)
    .innerJoin(couples, eq(couples.id, forumMentions.mentionedCoupleId))
    .where(
      and(
        inArray(forumMentions.postId, postIds),
        withReplies ? undefined : isNull(forumMentions.replyId),
        notBlockedBetween(actor.coupleId, couples.id),
      ),
    );
  return (target: Target): ForumMention[] =>
    rows
      .filter((row) => row.postId === target.postId && row.replyId === target.replyId)
      .map((row) => ({ coupleId: row.coupleId, name: row.name }));
}
