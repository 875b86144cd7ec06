import "server-only";
import { and, asc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
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
const namedReactor = (actor: ForumActor): SQL =>
  sql`((${couples.status} = 'active' and ${couples.isVisible}) or ${couples.id} = ${actor.coupleId})`;

/** Counts, the viewer's own kinds and who reacted, for a thread's post and replies (one query). */
export async function threadReactions(db: Db, actor: ForumActor, postId: string) {
  const rows = await db
    .select({
      replyId: forumReactions.replyId,
      kind: forumReactions.kind,
      userId: forumReactions.userId,
      firstName: users.firstName,
      coupleName: couples.coupleName,
      named: sql<boolean>`${namedReactor(actor)}`,
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

/** Counts, the viewer's own kinds and the first who reacted, for a list page's posts (reactions on the posts only). */
export async function listReactions(db: Db, actor: ForumActor, postIds: string[]) {
  if (postIds.length === 0) return () => ({ reactions: reactionCounts([]), myReactions: [] as ReactionKind[], reactedBy: noneReacted() });
  const rows = await db
    .select({
      postId: forumReactions.postId,
      kind: forumReactions.kind,
      count: sql<number>`count(*)::int`,
      mine: sql<boolean>`bool_or(${forumReactions.userId} = ${actor.userId})`,
      names: sql<string[]>`coalesce((array_agg(${users.firstName} || ' of ' || ${couples.coupleName} order by ${forumReactions.createdAt}, ${forumReactions.id}) filter (where ${namedReactor(actor)}))[1:${sql.raw(String(REACTED_BY_SHOWN))}], '{}')`,
    })
    .from(forumReactions)
    .innerJoin(users, eq(users.id, forumReactions.userId))
    .innerJoin(couples, eq(couples.id, forumReactions.coupleId))
    .where(and(inArray(forumReactions.postId, postIds), isNull(forumReactions.replyId), notBlockedBetween(actor.coupleId, forumReactions.coupleId)))
    .groupBy(forumReactions.postId, forumReactions.kind);
  return (postId: string) => {
    const own = rows.filter((row) => row.postId === postId);
    const reactedBy = noneReacted();
    for (const row of own) reactedBy[row.kind] = row.names;
    return { reactions: reactionCounts(own), myReactions: own.filter((row) => row.mine).map((row) => row.kind), reactedBy };
  };
}

/** The validated mentions of posts (and, with replies, of replies), without couples blocked either way. */
export async function mentionsOf(db: Db, actor: ForumActor, postIds: string[], withReplies: boolean) {
  if (postIds.length === 0) return () => [];
  const rows = await db
    .select({ postId: forumMentions.postId, replyId: forumMentions.replyId, coupleId: couples.id, name: couples.coupleName })
    .from(forumMentions)
    .innerJoin(couples, eq(couples.id, forumMentions.mentionedCoupleId))
    .where(and(inArray(forumMentions.postId, postIds), withReplies ? undefined : isNull(forumMentions.replyId), notBlockedBetween(actor.coupleId, couples.id)));
  return (target: Target): ForumMention[] =>
    rows.filter((row) => row.postId === target.postId && row.replyId === target.replyId).map((row) => ({ coupleId: row.coupleId, name: row.name }));
}
