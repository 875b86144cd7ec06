import "server-only";
import { and, eq, lte, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { transaction } from "@/db/transaction";
import { forumPosts, forumTopWindow } from "@/db/schema";
import { TOP_WINDOW_DAYS } from "./rules";

/**
 * Top's stored counter (db/schema/forum-top.ts): `forum_posts.top_score` counts the reactions on
 * a post created after `forum_top_window.decayed_until - 7 days`. Every function here keeps that
 * true, so a Top page is a keyset range of `forum_posts_top_idx` and never counts reactions.
 */

const WINDOW = sql.raw(`interval '${TOP_WINDOW_DAYS} days'`);
/** How often a process moves the window forward (a Top list may be this much older than "the last 7 days"). */
export const TOP_DECAY_EVERY_MS = 60_000;
/** How often each database's scores are counted afresh, repairing any drift (a write lost by a crash, a row changed by hand). */
const REBUILD_EVERY = sql.raw("interval '1 day'");

/**
 * Holds the window's row (FOR SHARE) for the rest of a transaction that counts or uncounts a post's
 * reaction, before the post's row, as a move or a rebuild takes them: a rebuild counting at the
 * same instant waits for the reaction to commit (and counts it), or the reaction for the rebuild,
 * never setting a score from a count that missed a reaction already added to it.
 */
export async function holdTopWindow(tx: Db): Promise<void> {
  await tx.execute(sql`select 1 from forum_top_window where id = 1 for share`);
}

/** A new reaction on a post counts at once (it is newer than any window start), in its transaction. */
export async function countTopReaction(tx: Db, postId: string): Promise<void> {
  await holdTopWindow(tx);
  await tx
    .update(forumPosts)
    .set({ topScore: sql`${forumPosts.topScore} + 1` })
    .where(eq(forumPosts.id, postId));
}

/**
 * A removed reaction on a post stops counting if it still counted (created inside the window). The
 * window's row is read FOR SHARE, so a concurrent move either saw the reaction or sees this.
 */
export async function uncountTopReaction(tx: Db, postId: string, createdAt: Date): Promise<void> {
  await tx.execute(sql`update forum_posts set top_score = greatest(top_score - 1, 0)
    where id = ${postId} and ${createdAt.toISOString()}::timestamptz > coalesce(
      (select decayed_until from forum_top_window where id = 1 for share), '-infinity'::timestamptz) - ${WINDOW}`);
}

/**
 * A person's reactions on posts stop counting when their account goes (their rows cascade with
 * the user's), in the deletion's transaction: those still inside the window, per post, as
 * `uncountTopReaction` does one (the window's row read FOR SHARE first).
 */
export async function uncountTopReactionsOf(tx: Db, userId: string): Promise<void> {
  await tx.execute(sql`select 1 from forum_top_window where id = 1 for share`);
  await tx.execute(sql`update forum_posts p set top_score = greatest(p.top_score - r.n, 0)
    from (select post_id, count(*)::int as n from forum_reactions
          where user_id = ${userId} and reply_id is null and created_at > coalesce(
            (select decayed_until from forum_top_window where id = 1), '-infinity'::timestamptz) - ${WINDOW}
          group by post_id) r
    where p.id = r.post_id`);
}

/**
 * Moves the window to `now`: subtracts, per post, only the reactions that left it since the last
 * move (a short range of the (created_at, post_id) index). A move already under way elsewhere
 * holds the row, and this one skips (SKIP LOCKED): it would do nothing more. The row is claimed in
 * a statement of its own and the reactions counted in the next, whose snapshot is taken once the
 * row is held: a reaction removed (and uncounted) by a transaction that committed meanwhile is no
 * longer there to be subtracted twice, as a statement that began before that commit would still see it.
 */
export async function decayTopScores(db: Db, now?: Date): Promise<void> {
  const at = now ? sql`${now.toISOString()}::timestamptz` : sql`now()`;
  await transaction(db, async (tx) => {
    const held = await tx
      .select({ id: forumTopWindow.id })
      .from(forumTopWindow)
      .where(eq(forumTopWindow.id, 1))
      .for("update", { skipLocked: true });
    if (held.length === 0) return;
    await tx.execute(sql`with gone as (
        select r.post_id, count(*)::int as n from forum_reactions r, forum_top_window w
        where w.id = 1 and r.reply_id is null and r.created_at > w.decayed_until - ${WINDOW} and r.created_at <= ${at} - ${WINDOW}
        group by r.post_id),
      moved as (update forum_posts p set top_score = greatest(p.top_score - gone.n, 0) from gone where p.id = gone.post_id returning 1)
      update forum_top_window set decayed_until = greatest(decayed_until, ${at}) where id = 1`);
  });
}

let nextCheck = 0;

/**
 * Before a Top page: at most once a minute per process, move the window if it is older than that.
 * Serverless instances have no timer of their own, so the move rides on the reads that need it;
 * the day's rebuild is due work (lib/scheduled/service.ts), never a reader's wait. Creates the row
 * when it is missing (a database emptied by hand), counting from now.
 */
export async function keepTopWindowFresh(db: Db): Promise<void> {
  if (Date.now() < nextCheck) return;
  nextCheck = Date.now() + TOP_DECAY_EVERY_MS;
  const [row] = await db.select({ decayedUntil: forumTopWindow.decayedUntil }).from(forumTopWindow).where(eq(forumTopWindow.id, 1));
  if (!row) {
    await db.insert(forumTopWindow).values({ id: 1 }).onConflictDoNothing();
    return;
  }
  if (Date.now() - row.decayedUntil.getTime() >= TOP_DECAY_EVERY_MS) await decayTopScores(db);
}

/**
 * Rebuilds the scores when the last rebuild is a day old, and answers whether it did: part of the
 * due work (lib/scheduled/service.ts). The window's row is claimed FOR UPDATE SKIP LOCKED in the
 * rebuild's transaction: of runs checking at once, one rebuilds and the others go on (a failed
 * rebuild leaves it due for the next run).
 */
export async function rebuildTopScoresIfDue(db: Db): Promise<boolean> {
  return transaction(db, async (tx) => {
    const due = await tx
      .select({ id: forumTopWindow.id })
      .from(forumTopWindow)
      .where(and(eq(forumTopWindow.id, 1), lte(forumTopWindow.rebuiltAt, sql`now() - ${REBUILD_EVERY}`)))
      .for("update", { skipLocked: true });
    if (due.length === 0) return false;
    await rebuildTopScores(tx);
    return true;
  });
}

/**
 * Counts every post's score afresh from the reactions of the last 7 days and starts the window
 * now: after writing reactions straight into the database (the seeds), or to repair drift.
 */
export async function rebuildTopScores(db: Db): Promise<void> {
  await transaction(db, async (tx) => {
    await tx.insert(forumTopWindow).values({ id: 1 }).onConflictDoNothing();
    await tx.execute(sql`select 1 from forum_top_window where id = 1 for update`);
    // Posts with reactions in the window get their count (only where it changed) ...
    await tx.execute(sql`update forum_posts p set top_score = r.n
      from (select post_id, count(*)::int as n from forum_reactions
            where reply_id is null and created_at > now() - ${WINDOW} group by post_id) r
      where p.id = r.post_id and p.top_score <> r.n`);
    // ... and the others that still had a score (read from the Top index) lose it.
    await tx.execute(sql`update forum_posts p set top_score = 0
      where p.top_score > 0 and not exists (
        select 1 from forum_reactions r where r.post_id = p.id and r.reply_id is null and r.created_at > now() - ${WINDOW})`);
    await tx
      .update(forumTopWindow)
      .set({ decayedUntil: sql`now()`, rebuiltAt: sql`now()` })
      .where(eq(forumTopWindow.id, 1));
  });
}
