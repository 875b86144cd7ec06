/**
 * `npm run db:migrate`: applies the committed migrations in db/migrations to the database the
 * app would use (DATABASE_URL, over its direct DATABASE_URL_UNPOOLED when set; else PGlite under
 * PGLITE_DIR), and says which ones it applied. The release step of a serverless deployment.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { count } from "drizzle-orm";
import { pgSchema, text } from "drizzle-orm/pg-core";
import { MIGRATIONS_FOLDER, openDatabase, type Db } from "@/db/client";
import { env } from "@/lib/env";

/** drizzle-orm's own bookkeeping table (same name for postgres.js and PGlite). */
const applied = pgSchema("drizzle").table("__drizzle_migrations", { hash: text("hash").notNull() });

async function appliedCount(db: Db): Promise<number> {
  try {
    const [row] = await db.select({ n: count() }).from(applied);
    return row?.n ?? 0;
  } catch {
    return 0; // not migrated yet: the table does not exist
  }
}

/** Where we are writing, without the password of a URL. */
function target(): string {
  const { DATABASE_URL, PGLITE_DIR } = env();
  const direct = env().DATABASE_URL_UNPOOLED ?? DATABASE_URL;
  if (!direct) return `PGlite at ${PGLITE_DIR.startsWith("memory://") ? PGLITE_DIR : path.resolve(PGLITE_DIR)}`;
  const url = new URL(direct);
  if (url.password) url.password = "***";
  return `Postgres at ${url.toString()}`;
}

async function main(): Promise<void> {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as {
    entries: { tag: string }[];
  };
  const where = target();
  const handle = await openDatabase(env().DATABASE_URL_UNPOOLED ?? env().DATABASE_URL);
  try {
    const before = await appliedCount(handle.db);
    await handle.migrate();
    const after = await appliedCount(handle.db);
    const tags = journal.entries.slice(before, after).map((e) => e.tag);
    console.log(
      tags.length
        ? `Applied ${tags.length} migration(s) to ${where}: ${tags.join(", ")}.`
        : `${where} is up to date (${after} migration(s) applied, none pending).`,
    );
  } catch (error) {
    fail(error);
  } finally {
    await handle.close();
  }
}

/**
 * One line, then the exit code. Set before closing: with postgres.js 3.4.9, end() never settles after
 * a failed connection, and Node then exits when the loop drains, with this code.
 */
function fail(error: unknown): void {
  // drizzle wraps driver errors ("Failed query: <sql>"); the cause says what went wrong.
  const cause = (error as { cause?: { message?: string } }).cause?.message;
  const message = cause ?? (error instanceof Error ? error.message : String(error));
  console.error(`db:migrate failed: ${message.replace(/\s+/g, " ").trim()}`);
  process.exitCode = 1;
}

main().catch(fail);
