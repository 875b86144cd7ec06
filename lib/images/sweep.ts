import "server-only";
import { and, inArray, lt, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { STAGED_PHOTO_HOURS } from "./rules";
import { writeDeletingImages } from "./undeleted";

/**
 * A table of uploads waiting to be used: a row per upload, which the write that shows it deletes
 * (its claim), so a row still there long after it came names an upload nobody used.
 * `id` is the row's unique column, `file` what names the file (its key or URL), `keyOf` its
 * storage key from that (null for none of this app's).
 */
export type UploadRows = { table: PgTable; id: PgColumn; file: PgColumn; createdAt: PgColumn; keyOf: (file: string) => string | null };

/**
 * Deletes up to `batch` rows of uploads that came STAGED_PHOTO_HOURS or more before `now` (the
 * wait every upload gets for the write that uses it), oldest first, of those `onlyWhere` admits
 * (SKIP LOCKED: instances sweeping at once take different rows), then their files
 * (writeDeletingImages: recorded with the rows' removal). Answers how many rows went.
 */
export async function sweepUnusedUploads(db: Db, uploads: UploadRows, now: Date, batch: number, onlyWhere?: SQL): Promise<number> {
  const { table, id, file, createdAt, keyOf } = uploads;
  const before = new Date(now.getTime() - STAGED_PHOTO_HOURS * 3_600_000);
  return writeDeletingImages(db, async (tx) => {
    const rows = await tx
      .delete(table)
      .where(
        inArray(
          id,
          tx
            .select({ id })
            .from(table)
            .where(and(lt(createdAt, before), onlyWhere))
            .orderBy(createdAt)
            .limit(batch)
            .for("update", { skipLocked: true }),
        ),
      )
      .returning({ file });
    const deletedKeys = rows.flatMap((row) => keyOf(String(row.file)) ?? []);
    return { result: rows.length, deletedKeys };
  });
}
