import postgres from "postgres";

/** The machine's Postgres (trust auth, database `test`), unless TEST_DATABASE_URL says otherwise. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/**
 * Whether this test file runs on a Postgres server (its own database, DATABASE_URL set by the
 * setup) rather than the embedded PGlite, where one client serves the process: no second
 * connection, no second instance, no lock to wait on. A function: the setup sets DATABASE_URL after
 * importing this module.
 */
export const onPostgres = (): boolean => Boolean(process.env.DATABASE_URL);

export function databaseUrl(name: string): string {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** True when the real Postgres answers; otherwise tests fall back to an in-memory PGlite. */
export async function postgresAnswers(): Promise<boolean> {
  const sql = postgres(TEST_DATABASE_URL, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

export async function adminQuery<T>(run: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
  try {
    return await run(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}
