import "server-only";
import { inArray, lte, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { transaction } from "@/db/transaction";
import { undeletedImages } from "@/db/schema";
import { imageStorage, type ImageStorage } from "@/lib/storage";
import { describeError } from "@/lib/log";

/**
 * The files nothing shows any more that storage has not confirmed removed (db/schema/images.ts
 * undeletedImages). A removal is tried again a minute later, then twice as long after each
 * failure, up to a day, until storage confirms (removing a missing file succeeds, so a try
 * again is always safe).
 */

/** How many files one run of the due work tries at most. */
const RETRIES_PER_RUN = 100;
/** Minutes before the first try again, doubled by each failure up to MAX_WAIT_MINUTES. */
const FIRST_WAIT_MINUTES = 1;
const MAX_WAIT_MINUTES = 24 * 60;

/** Records files for the due work, in the caller's transaction (or after a failed removal). */
export async function retryLater(db: Db, keys: readonly string[], now = new Date()): Promise<void> {
  if (keys.length === 0) return;
  const retryAt = new Date(now.getTime() + FIRST_WAIT_MINUTES * 60_000);
  await db
    .insert(undeletedImages)
    .values([...new Set(keys)].map((key) => ({ key, retryAt })))
    .onConflictDoNothing();
}

/** After removals: those storage confirmed are forgotten (if recorded ahead), those that failed recorded. */
async function settleRemovals(db: Db, { removed, failed }: { removed: readonly string[]; failed: readonly string[] }): Promise<void> {
  if (removed.length > 0) await db.delete(undeletedImages).where(inArray(undeletedImages.key, [...removed]));
  await retryLater(db, failed);
}

/**
 * Removes stored files whose rows are gone (or never came: a write that failed). A file storage
 * could not remove is recorded for the due work to try again, one recorded ahead and removed now is
 * forgotten; never an error for the caller, whose own change or error stands. Answers how many
 * storage confirmed.
 */
export async function deleteImages(db: Db, keys: readonly string[], storage?: ImageStorage): Promise<number> {
  if (keys.length === 0) return 0;
  const target = storage ?? (await imageStorage());
  const results = await Promise.allSettled(keys.map((key) => target.delete(key)));
  const removed = keys.filter((_, index) => results[index]!.status === "fulfilled");
  const failed = keys.filter((_, index) => results[index]!.status === "rejected");
  for (const result of results) if (result.status === "rejected") console.error("[images] could not delete", describeError(result.reason));
  await settleRemovals(db, { removed, failed }).catch((error: unknown) =>
    console.error("[images] could not record files to delete", describeError(error)),
  );
  return removed.length;
}

/**
 * The due work's turn: claims the files whose try is due (SKIP LOCKED: overlapping runs take
 * different ones; each claim sets its next try, so a run that stops half-way loses none), removes
 * them, and forgets those storage confirmed. Answers how many it removed.
 */
export async function retryUndeletedImages(db: Db, now: Date, storage?: ImageStorage): Promise<number> {
  const claimed = await transaction(db, async (tx) => {
    const due = tx
      .select({ key: undeletedImages.key })
      .from(undeletedImages)
      .where(lte(undeletedImages.retryAt, now))
      .orderBy(undeletedImages.retryAt)
      .limit(RETRIES_PER_RUN)
      .for("update", { skipLocked: true });
    // The exponent is capped before the power is taken (2^1024 overflows): 2^11 minutes is past a day already.
    const waitMinutes = sql`least(${FIRST_WAIT_MINUTES} * power(2, least(${undeletedImages.tries} + 1, 11)), ${MAX_WAIT_MINUTES})`;
    return tx
      .update(undeletedImages)
      .set({
        tries: sql`${undeletedImages.tries} + 1`,
        retryAt: sql`${now.toISOString()}::timestamptz + ${waitMinutes} * interval '1 minute'`,
      })
      .where(inArray(undeletedImages.key, due))
      .returning({ key: undeletedImages.key });
  });
  // A removal that fails again keeps its row, with the next try the claim set.
  return deleteImages(
    db,
    claimed.map((row) => row.key),
    storage,
  );
}
