import "server-only";
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { env } from "@/lib/env";
import { within } from "@/lib/timeout";
import * as schema from "./schema";

export type Schema = typeof schema;
/** A database or a transaction: domain functions take either, so callers decide the unit of work. */
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export const MIGRATIONS_FOLDER = path.join(process.cwd(), "db", "migrations");

type Handle = {
  /** The database; over postgres.js, the current pool's (it throws SERVICE_UNAVAILABLE while the database is down). */
  readonly db: Db;
  migrate: () => Promise<void>;
  /** Whether the database answers a round trip within `timeoutMs` (readiness). */
  ready: (timeoutMs: number) => Promise<boolean>;
  close: () => Promise<void>;
};

/** How long a new connection may take: an unreachable database fails a request well within 5 s. */
const CONNECT_TIMEOUT_SECONDS = 3;

/**
 * postgres.js when DATABASE_URL is set, otherwise an embedded PGlite under .data/.
 * PGlite is one single-connection instance per process, so the handle lives on globalThis
 * (it survives hot reloads and is shared by every route of the process).
 */
export async function openDatabase(url = env().DATABASE_URL): Promise<Handle> {
  if (url) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    const { supervisedPool } = await import("./supervised-pool");
    const pool = supervisedPool(
      (onclose) =>
        postgres(url, {
          max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
          connect_timeout: CONNECT_TIMEOUT_SECONDS,
          // Idle connections are closed (and so re-made after a restart) rather than kept for ever.
          idle_timeout: 60,
          onnotice: () => {},
          onclose,
        }),
      () => postgres(url, { max: 1, connect_timeout: 1, onnotice: () => {} }),
    );
    // One Drizzle instance per pool: a pool replaced after an outage gets its own.
    let bound: { sql: ReturnType<typeof pool.current>; db: ReturnType<typeof drizzle<Schema>> } | undefined;
    const current = () => {
      const sql = pool.current();
      if (bound?.sql !== sql) bound = { sql, db: drizzle(sql, { schema }) };
      return bound;
    };
    return {
      get db() {
        return current().db as unknown as Db;
      },
      // Serverless instances may start together: one migrates while the others wait on the lock.
      migrate: async () => {
        const { sql, db } = current();
        const lock = await sql.reserve();
        try {
          await lock`select pg_advisory_lock(724301)`;
          await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
        } finally {
          await lock`select pg_advisory_unlock(724301)`;
          lock.release();
        }
      },
      ready: (timeoutMs) => pool.ping(timeoutMs),
      // Bounded: after a failed connection, end() without a timeout can wait forever.
      close: () => pool.end(),
    };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  // PGlite does not create missing parent folders; "memory://" keeps everything in memory.
  const dataDir = env().PGLITE_DIR;
  const inMemory = dataDir.startsWith("memory://");
  if (!inMemory) mkdirSync(path.resolve(dataDir), { recursive: true });
  const { withNamedStatements } = await import("./pglite-statements");
  // The extensions migration 0009 creates (the directory's nearest walk and name search).
  const [{ cube }, { pg_trgm }] = await Promise.all([
    import("@electric-sql/pglite/contrib/cube"),
    import("@electric-sql/pglite/contrib/pg_trgm"),
  ]);
  const client = new PGlite(inMemory ? dataDir : path.resolve(dataDir), { extensions: { cube, pg_trgm } });
  const db = drizzle(withNamedStatements(client), { schema });
  return {
    db: db as unknown as Db,
    migrate: async () => {
      await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
    },
    ready: (timeoutMs) =>
      within(
        client.query("select 1").then(() => true),
        timeoutMs,
        false,
      ),
    close: () => client.close(),
  };
}

const globalForDb = globalThis as unknown as { __appDb?: Promise<Handle> };

function handle(): Promise<Handle> {
  globalForDb.__appDb ??= (async () => {
    const opened = await openDatabase();
    try {
      await opened.migrate();
    } catch (error) {
      await opened.close().catch(() => {}); // the next request opens afresh
      throw error;
    }
    return opened;
  })().catch((error) => {
    globalForDb.__appDb = undefined;
    throw error;
  });
  return globalForDb.__appDb;
}

/** The process-wide database, migrated on first use. */
export const getDb = async (): Promise<Db> => (await handle()).db;

/** Readiness: the process-wide database answers a round trip within `timeoutMs`. */
export function databaseReady(timeoutMs: number): Promise<boolean> {
  return within(
    handle().then(
      (opened) => opened.ready(timeoutMs),
      () => false,
    ),
    timeoutMs,
    false,
  );
}

/** Closes the process-wide database (scripts and tests; a server keeps it open). */
export async function closeDb(): Promise<void> {
  const current = globalForDb.__appDb;
  globalForDb.__appDb = undefined;
  if (current) await (await current).close();
}
