import "server-only";
import { and, eq, sql, type Column, type SQL } from "drizzle-orm";
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
 * The reactions on a post (`postId`: a value, or the post of the outer statement) and its
 * replies, of couples not blocked either way, each as one JSON `row` with its time `at`.
 */
export function reactionsOnThread(db: Db, viewerCouple: SQL, postId: SQL | Column) {
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
    .where(and(eq(forumReactions.postId, postId), notBlockedBetween(viewerCouple, forumReactions.coupleId)));
}

/** Prepared: every reply written or changed reads them. */
const reactionsOfThread = preparedPer((db) =>
  db
    .select({ rows: jsonArray<ReactionRow>(reactionsOnThread(db, placeholderSql("coupleId"), placeholderSql("postId")), sql`t.at`) })
    .from(sql`(values (1)) as one_row`)
    .prepare("forum_thread_reactions"),
);

/** Counts, the viewer's own kinds and who reacted, for a thread's post and replies (one query). */
export async function threadReactions(db: Db, actor: ActingCouple, postId: string) {
  const [found] = await reactionsOfThread(db).execute({ postId, coupleId: actor.coupleId });
  return reactionsByTarget(found?.rows ?? [], actor, postId);
}

/** A thread's reactions (`reactionsOnThread`'s rows, earliest first) by what they are on, as the actor sees them. */
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
