import "server-only";
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { env } from "@/lib/env";
import * as schema from "./schema";

export type Schema = typeof schema;
/** A database or a transaction: domain functions take either, so callers decide the unit of work. */
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export const MIGRATIONS_FOLDER = path.join(process.cwd(), "db", "migrations");

type Handle = { db: Db; migrate: () => Promise<void>; close: () => Promise<void> };

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
    const client = postgres(url, { max: Number(process.env.DATABASE_POOL_SIZE ?? 10), onnotice: () => {} });
    const db = drizzle(client, { schema });
    return {
      db: db as unknown as Db,
      // Serverless instances may start together: one migrates while the others wait on the lock.
      migrate: async () => {
        const lock = await client.reserve();
        try {
          await lock`select pg_advisory_lock(724301)`;
          await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
        } finally {
          await lock`select pg_advisory_unlock(724301)`;
          lock.release();
        }
      },
      // Bounded: after a failed connection, end() without a timeout can wait forever.
      close: () => client.end({ timeout: 5 }),
    };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  // PGlite does not create missing parent folders; "memory://" keeps everything in memory.
  const dataDir = env().PGLITE_DIR;
  const inMemory = dataDir.startsWith("memory://");
  if (!inMemory) mkdirSync(path.resolve(dataDir), { recursive: true });
  const client = new PGlite(inMemory ? dataDir : path.resolve(dataDir));
  const db = drizzle(client, { schema });
  return {
    db: db as unknown as Db,
    migrate: async () => {
      await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
    },
    close: () => client.close(),
  };
}

const globalForDb = globalThis as unknown as { __appDb?: Promise<Handle> };

function handle(): Promise<Handle> {
  globalForDb.__appDb ??= (async () => {
    const opened = await openDatabase();
    await opened.migrate();
    return opened;
  })().catch((error) => {
    globalForDb.__appDb = undefined;
    throw error;
  });
  return globalForDb.__appDb;
}

/** The process-wide database, migrated on first use. */
export const getDb = async (): Promise<Db> => (await handle()).db;

/** Closes the process-wide database (scripts and tests; a server keeps it open). */
export async function closeDb(): Promise<void> {
  const current = globalForDb.__appDb;
  globalForDb.__appDb = undefined;
  if (current) await (await current).close();
}
