import "server-only";
import { and, eq, isNull, max, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { forumPosts, forumReplies } from "@/db/schema";
import { inNoBlock, type CoupleRef } from "@/lib/safety/blocks";

/*
 * A post's last activity (Latest's one indexed column, so one order for every reader) is moved
 * only by replies every reader of the thread sees: a reply of a couple in a block either way is
 * missing for the couple at the other end, and one hidden by reports for all but its own, so
 * either would raise the post in their Latest with nothing new in it. A reply's couple is judged
 * when it is written (a block made later does not move the post back), and a reply hidden by
 * reports takes its activity with it: the post falls back to its latest reply seen by all.
 */

/** SQL: a reply by this couple is seen by every reader of its thread (its hiding aside). */
export const seenByEveryReader = (replyCouple: CoupleRef) => inNoBlock(replyCouple);

/**
 * Dates the post's last activity again from its replies seen by all (or its creation), once one was
 * hidden by reports or shown again. The post's row is locked by the update: a reply written
 * meanwhile waits, and moves it after.
 */
export async function redateLastActivity(tx: Db, postId: string): Promise<void> {
  const latestSeen = tx
    .select({ at: max(forumReplies.createdAt) })
    .from(forumReplies)
    .where(and(eq(forumReplies.postId, postId), isNull(forumReplies.hiddenAt), seenByEveryReader(forumReplies.coupleId)));
  await tx
    .update(forumPosts)
    .set({ lastActivityAt: sql`greatest(${forumPosts.createdAt}, (${latestSeen}))` })
    .where(eq(forumPosts.id, postId));
}
