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

/**
 * SQL: a query's rows as one JSON array in `order` (of its columns, as `t.`), `[]` when none: each
 * row's `row` column (a `jsonObject`), or, `whole`, each row itself by its columns' names (a select
 * of `keyedFields`).
 */
export const jsonArray = <T>(rows: SQL | { getSQL: () => SQL }, order: SQL, whole = false): SQL<T[]> =>
  sql<T[]>`(select coalesce(json_agg(${whole ? sql`t` : sql`t.row`} order by ${order}), '[]'::json) from (${rows}) t)`;

/**
 * A select's fields, each named by its key, for a read whose rows `jsonArray` sends `whole`: JSON
 * objects with the same keys. Drizzle maps none of them (the caller reads the JSON), so the fields
 * keep their type for the query builder alone.
 */
export const keyedFields = <F extends Record<string, unknown>>(fields: F): F =>
  Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, sql`${field as SQL}`.as(key)])) as unknown as F;

/** A time of such a row, back as a date. */
export const dateOf = (text: string | null): Date | null => (text === null ? null : new Date(text));
