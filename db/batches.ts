import { sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "./client";

/**
 * A list in slices of at most `size`, in order: a statement binds at most 65,535 values
 * (Postgres's protocol), so a list that may be long is written or named a slice a statement,
 * and work that may be long (storage calls) runs a slice at a time.
 */
export function* batches<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}

/**
 * Removes at most `limit` of a table's rows matching `where`, the oldest by `order` first, in the
 * caller's transaction (the due work's sweeps): rows another run holds are skipped (SKIP LOCKED),
 * so overlapping runs remove different ones. Answers how many went.
 */
export async function deleteOldest(
  tx: Db,
  table: PgTable & { id: PgColumn },
  { where, order, limit }: { where: SQL; order: PgColumn; limit: number },
): Promise<number> {
  const oldest = tx.select({ id: table.id }).from(table).where(where).orderBy(order).limit(limit).for("update", { skipLocked: true });
  const removed = await tx
    .delete(table)
    .where(sql`${table.id} = any(array(${oldest}))`)
    .returning({ id: table.id });
  return removed.length;
}
