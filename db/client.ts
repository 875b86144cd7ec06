import "server-only";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { sql, type ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { AppError } from "@/lib/errors";
import { env, isServerless } from "@/lib/env";
import { onShutdown } from "@/lib/shutdown";
import { within } from "@/lib/timeout";
import { resultRows } from "./result-rows";
import * as schema from "./schema";

export type Schema = typeof schema;
/** A database or a transaction: domain functions take either, so callers decide the unit of work. */
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export const MIGRATIONS_FOLDER = path.join(process.cwd(), "db", "migrations");

type Handle = {
  /** The database; over postgres.js, the current pool's (it throws SERVICE_UNAVAILABLE while the database is down). */
  readonly db: Db;
  migrate: () => Promise<void>;
  /** Runs `work` holding the migration lock: instances starting together do it one at a time. */
  underMigrationLock: <T>(work: (db: Db) => Promise<T>) => Promise<T>;
  /** Whether the database answers a round trip within `timeoutMs` (readiness). */
  ready: (timeoutMs: number) => Promise<boolean>;
  close: () => Promise<void>;
};

/** The advisory lock migrations (and a preview's first seed) run under. */
const MIGRATION_LOCK = 724301;

/** How long a new connection may take: an unreachable database fails a request well within 5 s. */
const CONNECT_TIMEOUT_SECONDS = 3;

const embeddedDatabases = new WeakSet<object>();

/**
 * Whether `db` is an embedded PGlite: one connection for the whole process, so whatever holds a
 * transaction open holds every other request too.
 */
export const isEmbedded = (db: Db): boolean => embeddedDatabases.has(db);

/**
 * postgres.js when DATABASE_URL is set, otherwise an embedded PGlite in `dataDir` (PGLITE_DIR, under .data/).
 * PGlite is one single-connection instance per process, so the handle lives on globalThis
 * (it survives hot reloads and is shared by every route of the process).
 */
export async function openDatabase(url = env().DATABASE_URL, dataDir = env().PGLITE_DIR): Promise<Handle> {
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
    // Instances may start together: one migrates (or seeds a preview) while the others wait on the lock.
    // The lock is held on a connection of its own, so the work has the whole pool (a pool of one included).
    const underMigrationLock = async <T>(work: (db: Db) => Promise<T>): Promise<T> => {
      // A session lock needs a session: the direct URL where the pooled one is a transaction pooler.
      const lock = postgres(env().DATABASE_URL_UNPOOLED ?? url, { max: 1, connect_timeout: CONNECT_TIMEOUT_SECONDS, onnotice: () => {} });
      try {
        await lock`select pg_advisory_lock(${MIGRATION_LOCK})`;
        return await work(current().db as unknown as Db);
      } finally {
        // Ending the session releases the lock, also when the unlock itself fails.
        await lock.end({ timeout: 5 });
      }
    };
    return {
      get db() {
        return current().db as unknown as Db;
      },
      migrate: () => underMigrationLock(() => migrate(current().db, { migrationsFolder: MIGRATIONS_FOLDER })),
      underMigrationLock,
      ready: (timeoutMs) => pool.ping(timeoutMs),
      // Bounded: after a failed connection, end() without a timeout can wait forever.
      close: () => pool.end(),
    };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  // PGlite does not create missing parent folders; "memory://" keeps everything in memory.
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
  embeddedDatabases.add(db);
  let queue: Promise<unknown> = Promise.resolve();
  return {
    db: db as unknown as Db,
    migrate: async () => {
      await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
    },
    // One process holds an embedded database: the lock is a queue in this process.
    underMigrationLock: <T>(work: (db: Db) => Promise<T>): Promise<T> => {
      const turn = queue.then(() => work(db as unknown as Db));
      queue = turn.catch(() => undefined);
      return turn;
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

/** The time stamp of the newest migration this build carries (drizzle records it as created_at). */
function newestMigration(): number {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as {
    entries: { when: number }[];
  };
  return Math.max(...journal.entries.map((entry) => entry.when));
}

/**
 * Serverless instances never migrate (a cold start must not race a schema change, and it would
 * hold every first request): `npm run db:migrate` is the release step. A schema behind this build
 * is refused with one line saying so, rather than answered with errors from missing columns.
 */
async function assertMigrated(db: Db): Promise<void> {
  const applied = await db
    .execute<{ newest: string | null }>(sql`select max(created_at)::text as newest from drizzle.__drizzle_migrations`)
    .then((result) => Number(resultRows<{ newest: string | null }>(result)[0]?.newest ?? 0))
    .catch(() => 0); // no bookkeeping table: never migrated
  if (applied < newestMigration()) {
    console.error(
      "[db] The database schema is behind this build: run `npm run db:migrate` as the release step (README, Deploy to Vercel).",
    );
    throw new AppError("SERVICE_UNAVAILABLE", "The service is briefly unavailable. Please try again in a few seconds.", {
      retryAfterSeconds: 5,
    });
  }
}

const globalForDb = globalThis as unknown as { __appDb?: Promise<Handle> };

function handle(): Promise<Handle> {
  globalForDb.__appDb ??= (async () => {
    const opened = await openDatabase();
    try {
      if (isServerless()) await assertMigrated(opened.db);
      else await opened.migrate();
    } catch (error) {
      await opened.close().catch(() => {}); // the next request opens afresh
      throw error;
    }
    onShutdown("database", closeDb);
    return opened;
  })().catch((error) => {
    globalForDb.__appDb = undefined;
    throw error;
  });
  return globalForDb.__appDb;
}

/** The process-wide database, migrated on first use (checked as migrated, in serverless mode). */
export const getDb = async (): Promise<Db> => (await handle()).db;

/** Runs `work` on the process-wide database under the migration lock (a preview's first seed). */
export const underMigrationLock = async <T>(work: (db: Db) => Promise<T>): Promise<T> => (await handle()).underMigrationLock(work);

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
