import "server-only";
import { inArray, is, lte, sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import { batches } from "@/db/batches";
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
/**
 * How many files a request removes itself, REMOVALS_AT_ONCE storage calls at a time: the rest of
 * a long list (an account with thousands of message photos) is left to the due work, so the
 * request ends in seconds and storage is never sent thousands of calls at once.
 */
const REMOVALS_NOW = 200;
const REMOVALS_AT_ONCE = 16;
/** Keys a statement names (two values a row written, one a key deleted: far under 65,535). */
const KEYS_PER_STATEMENT = 5_000;
/** Minutes before the first try again, doubled by each failure up to MAX_WAIT_MINUTES. */
const FIRST_WAIT_MINUTES = 1;
const MAX_WAIT_MINUTES = 24 * 60;

/** Records files for the due work, in the caller's transaction (or after a failed removal). */
export async function retryLater(db: Db, keys: readonly string[], now = new Date()): Promise<void> {
  if (keys.length === 0) return;
  const retryAt = new Date(now.getTime() + FIRST_WAIT_MINUTES * 60_000);
  for (const batch of batches([...new Set(keys)], KEYS_PER_STATEMENT))
    await db
      .insert(undeletedImages)
      .values(batch.map((key) => ({ key, retryAt })))
      .onConflictDoNothing();
}

/** After removals: those storage confirmed are forgotten (if recorded ahead), the others recorded. */
async function settleRemovals(db: Db, { removed, later }: { removed: readonly string[]; later: readonly string[] }): Promise<void> {
  for (const batch of batches(removed, KEYS_PER_STATEMENT)) await db.delete(undeletedImages).where(inArray(undeletedImages.key, batch));
  await retryLater(db, later);
}

/**
 * Removes stored files whose rows are gone (or never came: a write that failed): the first
 * REMOVALS_NOW, REMOVALS_AT_ONCE at a time; the rest, and a file storage could not remove, are
 * recorded for the due work to try, and one recorded ahead and removed now is forgotten. Never an
 * error for the caller, whose own change or error stands. Answers how many storage confirmed.
 */
export async function deleteImages(db: Db, keys: readonly string[], storage?: ImageStorage): Promise<number> {
  if (keys.length === 0) return 0;
  const target = storage ?? (await imageStorage());
  const removed: string[] = [];
  const later = keys.slice(REMOVALS_NOW);
  for (const batch of batches(keys.slice(0, REMOVALS_NOW), REMOVALS_AT_ONCE)) {
    const results = await Promise.allSettled(batch.map((key) => target.delete(key)));
    results.forEach((result, index) => {
      if (result.status === "fulfilled") return void removed.push(batch[index]!);
      later.push(batch[index]!);
      console.error("[images] could not delete", describeError(result.reason));
    });
  }
  await settleRemovals(db, { removed, later }).catch((error: unknown) =>
    console.error("[images] could not record files to delete", describeError(error)),
  );
  return removed.length;
}

/** A write's result, and the storage keys of the files its rows no longer show. */
export type WriteDeletingImages<T> = { result: T; deletedKeys: readonly string[] };

/**
 * The one way a write removes the files it took off its rows: `write` runs in a transaction that
 * also records the keys it answers (retryLater), so were the instance to stop between the commit
 * and storage, the due work still removes them; once committed they are removed, and each one
 * storage confirms is forgotten. A write that fails records and removes nothing. Only the
 * transaction throws.
 */
export async function writeDeletingImages<T>(
  db: Db,
  write: (tx: Db) => Promise<WriteDeletingImages<T>>,
  storage?: ImageStorage,
): Promise<T> {
  const { result, deletedKeys } = await transaction(db, async (tx) => {
    const written = await write(tx);
    await retryLater(tx, written.deletedKeys);
    return written;
  });
  // Inside a caller's transaction (joined) the keys are only recorded: removing the files before
  // that one commits could take what its rollback would show again; the due work removes them.
  if (!is(db, PgTransaction)) await deleteImages(db, deletedKeys, storage);
  return result;
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
