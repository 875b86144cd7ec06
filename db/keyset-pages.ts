import { asc, desc, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";

/**
 * A long list read a page at a time by its (created_at, id) order, each page after the last row
 * of the one before: in one transaction's snapshot, the pages are the whole list, once each,
 * while only one is held (the data export's long lists). A table without an id (a person's message
 * reactions) is ordered by (created_at, its key's columns) instead: `afterKey`, `keyOrder`.
 */
export type KeysetTable = PgTable & { id: PgColumn; createdAt: PgColumn };
type TimedTable = PgTable & { createdAt: PgColumn };
/** The columns after created_at that tell apart rows of one time and, together, name one row. */
type RowKey = readonly [PgColumn, ...PgColumn[]];

/**
 * The rows after the row whose `key` columns hold `after` in `table`'s (created_at, ...key) order,
 * or every row for the first page. The position is that row's own created_at, read by the
 * database: a JavaScript Date would cut a microsecond column's value to milliseconds and read a
 * row twice.
 */
export function afterKey(table: TimedTable, key: RowKey, after: readonly unknown[] | undefined, order: "asc" | "desc"): SQL | undefined {
  if (after === undefined) return undefined;
  const named = sql.join(
    key.map((column, index) => sql`${sql.identifier(column.name)} = ${after[index]}`),
    sql` and `,
  );
  const values = key.map((column, index) => sql`${after[index]}::${sql.raw(column.getSQLType())}`);
  const position = sql`((select ${sql.identifier(table.createdAt.name)} from ${table} where ${named}), ${sql.join(values, sql`, `)})`;
  const columns = sql`(${sql.join([table.createdAt, ...key], sql`, `)})`;
  return order === "asc" ? sql`${columns} > ${position}` : sql`${columns} < ${position}`;
}

/** The rows after the row `afterId` in `table`'s (created_at, id) order (afterKey), or every row for the first page. */
export const afterRow = (table: KeysetTable, afterId: string | undefined, order: "asc" | "desc"): SQL | undefined =>
  afterKey(table, [table.id], afterId === undefined ? undefined : [afterId], order);

/** The (created_at, ...key) order of `afterKey`. */
export const keyOrder = (table: TimedTable, key: RowKey, order: "asc" | "desc") =>
  [table.createdAt, ...key].map((column) => (order === "asc" ? asc(column) : desc(column)));

/** The (created_at, id) order of `afterRow`. */
export const keysetOrder = (table: KeysetTable, order: "asc" | "desc") => keyOrder(table, [table.id], order);

/** Every page `read` answers, each after the last row of the one before (`after`), until a page falls short of `size`. */
export async function* keysetPages<Row>(
  size: number,
  read: (after: NoInfer<Row> | undefined, size: number) => Promise<Row[]>,
): AsyncGenerator<Row[]> {
  for (let after: Row | undefined; ;) {
    const page = await read(after, size);
    if (page.length > 0) yield page;
    const last = page.at(-1);
    if (page.length < size || last === undefined) return;
    after = last;
  }
}
