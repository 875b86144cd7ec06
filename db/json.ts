import { sql, type SQL } from "drizzle-orm";

/**
 * Rows read as JSON: a list of many rows of many columns costs postgres.js and Drizzle's mapping
 * more than the database's work, so a read that sends one (a thread's replies and reactions) sends
 * it as one JSON value, and its reader turns the times back into dates.
 */

/** SQL: `json_build_object` of the named columns; the keys are the code's own names, never input. */
export const jsonObject = <T>(columns: Record<string, unknown>): SQL<T> =>
  sql<T>`json_build_object(${sql.join(
    Object.entries(columns).map(([name, column]) => sql`${sql.raw(`'${name}'`)}, ${column}`),
    sql`, `,
  )})`;

/** SQL: the `row` column of a query's rows as one JSON array in `order` (of its columns, as `t.`), `[]` when none. */
export const jsonArray = <T>(rows: SQL | { getSQL: () => SQL }, order: SQL): SQL<T[]> =>
  sql<T[]>`(select coalesce(json_agg(t.row order by ${order}), '[]'::json) from (${rows}) t)`;

/** A time of such a row, back as a date. */
export const dateOf = (text: string | null): Date | null => (text === null ? null : new Date(text));
