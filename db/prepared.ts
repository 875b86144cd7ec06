import type { Db } from "./client";

/**
 * A query built once per database handle rather than on every call: Drizzle then skips building
 * its SQL, and over postgres.js a named query is a server-side prepared statement (parsed and
 * planned once per connection). Keyed weakly by handle: a pool replaced after an outage, a
 * transaction or a test database each get their own.
 */
export function preparedPer<Q>(build: (db: Db) => Q): (db: Db) => Q {
  const built = new WeakMap<Db, Q>();
  return (db) => {
    let query = built.get(db);
    if (!query) built.set(db, (query = build(db)));
    return query;
  };
}
