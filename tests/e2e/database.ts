import postgres from "postgres";

/**
 * The run's database (scripts/e2e-server.sh makes one per port): the one place a test changes what
 * only time or an operator could (a role granted, a meetup moved into the past), never a way
 * the app offers.
 */
export async function runDatabase<T>(work: (db: postgres.Sql) => Promise<T>): Promise<T> {
  const adminUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const port = process.env.E2E_PORT ?? "3100";
  const [found] = await admin`select datname from pg_database where datname like ${`e2e_${port}_%`} order by datname desc limit 1`;
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${found!.datname as string}`;
  const db = postgres(url.toString(), { max: 1, onnotice: () => {} });
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}
