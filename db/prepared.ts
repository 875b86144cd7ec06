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
      nameOnClient(db, query.getQuery().sql);
    }
    return query;
  };
}

/** Registers `text` as a named statement on an embedded PGlite; postgres.js names a prepared query itself. */
export const nameOnClient = (db: Db, text: string): void => void (db as { $client?: Partial<NamingPGlite> }).$client?.nameStatement?.(text);

/** A query built with its values as parameters, that can run as it is or as a named statement. */
type Preparable<R> = PromiseLike<R> & { prepare: (name: string) => { getQuery: () => { sql: string }; execute: () => Promise<R> } };

/** The SQL each shape of a read was first built with, per database handle. */
const shapeTexts = new WeakMap<Db, Map<string, string>>();

/**
 * The most shapes a handle names: a server keeps each one's plan per connection, and postgres.js
 * its statement per connection for good, so a caller cycling through filter sets adds none past it.
 */
export const NAMED_SHAPES_MAX = 256;

/**
 * Runs a read whose SQL takes one of a bounded set of shapes (`shape`, from the read's own shape
 * builder; null for one that is planned afresh each time) as that shape's named statement: the
 * server parses and plans it once per connection (then keeps a generic plan) rather than on every
 * request, as it does an unnamed statement. Built per request, its values bound as parameters, so
 * every request of a shape sends the same text. The first text a shape is seen with is its
 * statement; a later one that differs (a value written into the SQL) runs unnamed, so a handle
 * never holds more statements than there are shapes, nor more than NAMED_SHAPES_MAX.
 */
export async function runAsShape<R>(db: Db, shape: string | null, query: Preparable<R>): Promise<R> {
  if (shape === null) return query;
  const prepared = query.prepare(shape);
  const text = prepared.getQuery().sql;
  let texts = shapeTexts.get(db);
  if (!texts) shapeTexts.set(db, (texts = new Map()));
  const first = texts.get(shape);
  if (first === undefined) {
    if (texts.size >= NAMED_SHAPES_MAX) return query;
    texts.set(shape, text);
    nameOnClient(db, text);
  } else if (first !== text) return query;
  return prepared.execute();
}

/**
 * A LIMIT written into the SQL (a validated integer): a prepared statement with a parameter for it
 * is planned for a tenth of its rows, so the server keeps planning it afresh rather than a generic plan
 * on the index that stops after the page.
 */
export function literalLimit(rows: number): number {
  if (!Number.isSafeInteger(rows) || rows < 0) throw new Error(`a limit is a whole number of rows, not ${rows}`);
  return sql.raw(String(rows)) as unknown as number;
}

/** A named placeholder as SQL, for the statement helpers that take a value or SQL (a person, a couple). */
export const placeholderSql = (name: string): SQL => sql`${sql.placeholder(name)}`;
