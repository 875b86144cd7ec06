/**
 * The databases a bench server runs on: PGlite in a temp folder, or a fresh `bench_<timestamp>`
 * on the local Postgres (ADMIN_URL), each with the step that removes it again.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
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
