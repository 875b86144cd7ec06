import "server-only";
import { and, inArray, lt, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { STAGED_PHOTO_HOURS } from "./rules";

/**
 * A table of uploads waiting to be used: a row per upload, which the write that shows it deletes
 * (its claim), so a row still there long after it came names an upload nobody used.
 * `id` is the row's unique column, `file` what the file is deleted by (its key or URL).
 */
export type UploadRows = { table: PgTable; id: PgColumn; file: PgColumn; createdAt: PgColumn };

/**
 * Deletes up to `batch` rows of uploads that came STAGED_PHOTO_HOURS or more before `now` (the
 * wait every upload gets for the write that uses it), oldest first, of those `onlyWhere` admits (SKIP LOCKED: instances sweeping at once take different rows), and answers
 * their `file` values, for the caller to delete the files once the rows are gone.
 */
export async function sweepUnusedUploads(db: Db, uploads: UploadRows, now: Date, batch: number, onlyWhere?: SQL): Promise<string[]> {
  const { table, id, file, createdAt } = uploads;
  const before = new Date(now.getTime() - STAGED_PHOTO_HOURS * 3_600_000);
  const rows = await db
    .delete(table)
    .where(
      inArray(
        id,
        db
          .select({ id })
          .from(table)
          .where(and(lt(createdAt, before), onlyWhere))
          .orderBy(createdAt)
          .limit(batch)
          .for("update", { skipLocked: true }),
      ),
    )
    .returning({ file });
  return rows.map((row) => String(row.file));
}
