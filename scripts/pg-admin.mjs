// Tiny admin helper for the browser tests' server: ping, create (with its lock guards), or drop databases by prefix.
import postgres from "postgres";

const [url, command, arg] = process.argv.slice(2);
const sql = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} });
const safe = (name) => {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`unsafe database name: ${name}`);
  return name;
};
try {
  if (command === "ping") await sql`select 1`;
  else if (command === "create") {
    await sql.unsafe(`create database ${safe(arg)}`);
    // A walk never hangs on a lock until its own timeout: a wait past 20 s (or a transaction left
    // idle that long, as one waiting on the pool it holds a connection of) fails with a logged
    // stack, and a wait past 1 s is named in Postgres's own log (log_lock_waits, a superuser's).
    await sql.unsafe(`alter database ${safe(arg)} set lock_timeout = '20s'`);
    await sql.unsafe(`alter database ${safe(arg)} set idle_in_transaction_session_timeout = '20s'`);
    await sql.unsafe(`alter database ${safe(arg)} set log_lock_waits = on`).catch(() => {});
  } else if (command === "drop-prefix") {
    const rows = await sql`select datname from pg_database where datname like ${`${safe(arg)}%`}`;
    for (const { datname } of rows) await sql.unsafe(`drop database if exists ${safe(datname)} with (force)`);
  } else throw new Error(`unknown command ${command}`);
} catch (error) {
  if (command !== "ping") console.error(String(error));
  process.exitCode = 1;
} finally {
  await sql.end({ timeout: 2 });
}
