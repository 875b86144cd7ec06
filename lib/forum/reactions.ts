import "server-only";
import { and, eq, isNull, sql, type Column, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { jsonArray, jsonObject } from "@/db/json";
import { placeholderSql, preparedPer } from "@/db/prepared";
import { couples, forumReactions, users } from "@/db/schema";
import { notBlockedBetween } from "@/lib/safety/blocks";
import { seenByViewer } from "@/lib/safety/visibility";
import { REACTED_BY_SHOWN, reactionCounts, signature, type ReactionKind } from "./rules";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { noneReacted, type ReactedBy, type Target } from "./projections";

const targetKey = (target: Target) => target.replyId ?? `post:${target.postId}`;

export type ReactionRow = {
  replyId: string | null;
  kind: ReactionKind;
  userId: string;
  firstName: string;
  coupleName: string;
  named: boolean;
};

/**
 * The reactions `where` picks (a thread page's post and replies, or one post or reply), of couples
 * not blocked either way, each as one JSON `row` with its time `at`.
 */
export function reactionsOn(db: Db, viewerCouple: SQL, where: SQL) {
  return db
    .select({
      row: jsonObject<ReactionRow>({
        replyId: forumReactions.replyId,
        kind: forumReactions.kind,
        userId: forumReactions.userId,
        firstName: users.firstName,
        coupleName: couples.coupleName,
        // A hidden couple's reactions are counted but never named to others.
        named: seenByViewer(viewerCouple),
      }).as("row"),
      at: sql`${forumReactions.createdAt}`.as("at"),
    })
    .from(forumReactions)
    .innerJoin(users, eq(users.id, forumReactions.userId))
    .innerJoin(couples, eq(couples.id, forumReactions.coupleId))
    .where(and(where, notBlockedBetween(viewerCouple, forumReactions.coupleId)));
}

/**
 * SQL: the reactions on the post itself, or on a reply; each by its own partial unique index (a
 * long thread's reactions are never read to find one reply's).
 */
export const onPost = (postId: SQL | Column) => and(eq(forumReactions.postId, postId), isNull(forumReactions.replyId))!;
export const onReply = (replyId: SQL | Column) => eq(forumReactions.replyId, replyId);

/** Prepared: every post and reply written, changed or reacted to reads its own. */
const reactionsOfTarget = (name: string, where: SQL) =>
  preparedPer((db) =>
    db
      .select({ rows: jsonArray<ReactionRow>(reactionsOn(db, placeholderSql("coupleId"), where), sql`t.at`) })
      .from(sql`(values (1)) as one_row`)
      .prepare(name),
  );
const reactionsOfPost = reactionsOfTarget("forum_post_reactions", onPost(placeholderSql("targetId")));
const reactionsOfReply = reactionsOfTarget("forum_reply_reactions", onReply(placeholderSql("targetId")));

/** Counts, the viewer's own kinds and who reacted, for one post (replyId null) or reply (one query). */
export async function targetReactions(db: Db, actor: ActingCouple, target: Target) {
  const read = target.replyId ? reactionsOfReply : reactionsOfPost;
  const [found] = await read(db).execute({ targetId: target.replyId ?? target.postId, coupleId: actor.coupleId });
  return reactionsByTarget(found?.rows ?? [], actor, target.postId);
}

/** Reactions (`reactionsOn`'s rows, earliest first) by what they are on, as the actor sees them. */
export function reactionsByTarget(rows: readonly ReactionRow[], actor: Pick<ActingCouple, "userId">, postId: string) {
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
