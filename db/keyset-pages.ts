import { asc, desc, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";

/**
 * A long list read a page at a time by its (created_at, id) order, each page after the last row
 * of the one before: in one transaction's snapshot, the pages are the whole list, once each,
 * while only one is held (the data export's long lists).
 */
export type KeysetTable = PgTable & { id: PgColumn; createdAt: PgColumn };

/**
 * The rows after the row `afterId` in `table`'s (created_at, id) order, or every row for the
 * first page. The position is that row's own created_at, read by the database: a JavaScript Date
 * would cut a microsecond column's value to milliseconds and read a row twice.
 */
export function afterRow(table: KeysetTable, afterId: string | undefined, order: "asc" | "desc"): SQL | undefined {
  if (afterId === undefined) return undefined;
  const position = sql`((select ${sql.identifier(table.createdAt.name)} from ${table} where ${sql.identifier(table.id.name)} = ${afterId}), ${afterId}::uuid)`;
  return order === "asc" ? sql`(${table.createdAt}, ${table.id}) > ${position}` : sql`(${table.createdAt}, ${table.id}) < ${position}`;
}

/** The (created_at, id) order of `afterRow`. */
export const keysetOrder = (table: KeysetTable, order: "asc" | "desc") =>
  order === "asc" ? [asc(table.createdAt), asc(table.id)] : [desc(table.createdAt), desc(table.id)];

/** Every page `read` answers, each after the last row of the one before, until a page falls short of `size`. */
export async function* keysetPages<Row extends { id: string }>(
  size: number,
  read: (afterId: string | undefined, size: number) => Promise<Row[]>,
): AsyncGenerator<Row[]> {
  for (let afterId: string | undefined; ;) {
    const page = await read(afterId, size);
    if (page.length > 0) yield page;
    const last = page.at(-1);
    if (page.length < size || !last) return;
    afterId = last.id;
  }
}
