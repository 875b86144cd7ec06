/**
 * The databases a bench server runs on: PGlite in a temp folder, or a fresh `bench_<timestamp>`
 * on the local Postgres (ADMIN_URL), each with the step that removes it again.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import postgres from "postgres";
import { openDatabase } from "@/db/client";
import { ADMIN_URL } from "./config";

/** `env` is what the app's server is given to use it (DATABASE_URL or PGLITE_DIR). */
export type BenchDatabase = { env: Record<string, string>; label: string; drop: () => Promise<void> };

const quiet = { onnotice: () => {} };

export function pgliteDatabase(): BenchDatabase {
  const dir = mkdtempSync(path.join(os.tmpdir(), "couples-bench-"));
  return {
    env: { PGLITE_DIR: path.join(dir, "pglite") },
    label: `PGlite in ${dir}`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A fresh database on the local Postgres, or null when it does not answer. */
export async function postgresDatabase(): Promise<BenchDatabase | null> {
  const admin = postgres(ADMIN_URL, { max: 1, connect_timeout: 3, ...quiet });
  try {
    await admin`select 1`;
  } catch {
    await admin.end({ timeout: 1 });
    return null;
  }
  const name = `bench_${Date.now()}`;
  try {
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    label: `Postgres database ${name}`,
    drop: async () => {
      const sql = postgres(ADMIN_URL, { max: 1, ...quiet });
      try {
        await sql.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await sql.end({ timeout: 5 });
      }
    },
  };
}

/**
 * A fresh `bench_<name>_<size>_<timestamp>` database on the local Postgres, migrated and filled by
 * `fill` (timed), with a one-connection client for the fill and EXPLAIN; `close` drops it.
 */
export async function scaleDatabase(
  admin: postgres.Sql,
  name: string,
  size: number,
  fill: (sql: postgres.Sql, size: number) => Promise<void>,
) {
  const database = `bench_${name}_${size}_${Date.now()}`;
  await admin.unsafe(`create database ${database}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  const handle = await openDatabase(url.toString());
  const sql = postgres(url.toString(), { max: 1, onnotice: () => {} });
  const close = async () => {
    await sql.end({ timeout: 5 });
    await handle.close();
    await admin.unsafe(`drop database if exists ${database} with (force)`);
  };
  try {
    await handle.migrate();
    await sql`select 1`; // postgres.js learns the array types on its first query
    const started = performance.now();
    await fill(sql, size);
    return { size, url: url.toString(), db: handle.db, sql, fillS: (performance.now() - started) / 1000, close };
  } catch (error) {
    await close();
    throw error;
  }
}
