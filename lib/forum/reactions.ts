import "server-only";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { placeholderSql, preparedPer } from "@/db/prepared";
import { couples, forumReactions, users } from "@/db/schema";
import { notBlockedBetween } from "@/lib/safety/blocks";
import { seenByViewer } from "@/lib/safety/visibility";
import { REACTED_BY_SHOWN, reactionCounts, signature, type ReactionKind } from "./rules";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { noneReacted, type ReactedBy, type Target } from "./projections";

const targetKey = (target: Target) => target.replyId ?? `post:${target.postId}`;

/** Prepared: every opening of a thread (and every reply written or changed) reads it. */
const reactionsOfThread = preparedPer((db) => {
  const viewerCouple = placeholderSql("coupleId");
  return db
    .select({
      replyId: forumReactions.replyId,
      kind: forumReactions.kind,
      userId: forumReactions.userId,
      firstName: users.firstName,
      coupleName: couples.coupleName,
      // A hidden couple's reactions are counted but never named to others.
      named: seenByViewer(viewerCouple),
    })
    .from(forumReactions)
    .innerJoin(users, eq(users.id, forumReactions.userId))
    .innerJoin(couples, eq(couples.id, forumReactions.coupleId))
    .where(and(eq(forumReactions.postId, sql.placeholder("postId")), notBlockedBetween(viewerCouple, forumReactions.coupleId)))
    .orderBy(asc(forumReactions.createdAt))
    .prepare("forum_thread_reactions");
});

/** Counts, the viewer's own kinds and who reacted, for a thread's post and replies (one query). */
export async function threadReactions(db: Db, actor: ActingCouple, postId: string) {
  const rows = await reactionsOfThread(db).execute({ postId, coupleId: actor.coupleId });
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
