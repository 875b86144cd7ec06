import { sql, type SQL } from "drizzle-orm";
import type { Db } from "./client";
import type { NamingPGlite } from "./pglite-statements";

/**
 * A read built once per database handle rather than on every call: Drizzle then skips building
 * its SQL, and the database parses and plans it once: over postgres.js a named query is a
 * server-side prepared statement (per connection), and on PGlite it is registered as a named
 * statement (db/pglite-statements.ts). Keyed weakly by handle: a pool replaced after an outage,
 * a transaction or a test database each get their own.
 */
export function preparedPer<Q extends { getQuery: () => { sql: string } }>(build: (db: Db) => Q): (db: Db) => Q {
  const built = new WeakMap<Db, Q>();
  return (db) => {
    let query = built.get(db);
    if (!query) {
      built.set(db, (query = build(db)));
      (db as { $client?: Partial<NamingPGlite> }).$client?.nameStatement?.(query.getQuery().sql);
    }
    return query;
  };
}

/** A named placeholder as SQL, for the statement helpers that take a value or SQL (a person, a couple). */
export const placeholderSql = (name: string): SQL => sql`${sql.placeholder(name)}`;
