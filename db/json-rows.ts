import { sql, type SQL } from "drizzle-orm";

/**
 * A select's fields, each named by its key: the rows of such a read, embedded in a statement that
 * reads them beside something else, become JSON objects with the same keys (`json_agg` of the
 * subquery). Drizzle maps none of them (the caller reads the JSON), so the fields keep their type
 * for the query builder alone.
 */
export const keyedFields = <F extends Record<string, unknown>>(fields: F): F =>
  Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, sql`${field as SQL}`.as(key)])) as unknown as F;
