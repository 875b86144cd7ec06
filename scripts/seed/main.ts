/**
 * `npm run db:seed`: the demo (lib/demo/seed.ts: couples, their locations, the interest
 * catalogue, one partner's notifications, the directory's neighbourhood and a forum), then the
 * demo sign-ins. `npm run db:seed -- --scale` fills a real Postgres for the benchmark instead
 * (scripts/seed/scale.ts). Idempotent: a second run resets the demo accounts to their demo state.
 */
import { openDatabase } from "@/db/client";
import { DEMO_PASSWORD } from "@/lib/demo/data";
import { seedDemo, type SignIn } from "@/lib/demo/seed";
import { env, seedRefusal } from "@/lib/env";
import { seedScale } from "./scale";

async function main(): Promise<void> {
  // Before the database is opened: the demo's public password never reaches production's.
  const refusal = seedRefusal();
  if (refusal) throw new Error(refusal);
  const scale = process.argv.includes("--scale");
  // `npm run app`: one line, with one sign-in; the README and a plain `npm run db:seed` list them all.
  const brief = process.argv.includes("--brief");
  if (scale && !env().DATABASE_URL) throw new Error("--scale fills a real Postgres: set DATABASE_URL");
  const handle = await openDatabase();
  try {
    // A fresh database works too: migrations are idempotent.
    await handle.migrate();
    if (scale) return await seedScale(handle.db);
    const seeded = await seedDemo(handle.db);
    if (brief) {
      const first = seeded.signIns[0]!;
      return console.log(`Demo data ready: sign in as ${first.email} with ${DEMO_PASSWORD} (npm run db:seed lists every demo sign-in).`);
    }
    console.log(
      `Seeded ${seeded.interests} interests, ${seeded.signIns.length} demo accounts (${seeded.couples} couples), ${seeded.notifications} notifications, ${seeded.directory} more couples for the directory and a forum of ${seeded.forum.posts} posts, ${seeded.forum.replies} replies and ${seeded.forum.reactions} reactions.\n`,
    );
    printTable(seeded.signIns);
  } catch (error) {
    fail(error);
  } finally {
    await handle.close();
  }
}

function printTable(rows: SignIn[]): void {
  const header = { email: "E-mail", password: "Password", shows: "Signing in shows" };
  const lines = [header, ...rows.map((r) => ({ ...r, password: DEMO_PASSWORD }))];
  const width = (key: "email" | "password") => Math.max(...lines.map((l) => l[key].length));
  const [ew, pw] = [width("email"), width("password")];
  for (const [i, l] of lines.entries()) {
    console.log(`${l.email.padEnd(ew)}  ${l.password.padEnd(pw)}  ${l.shows}`);
    if (i === 0) console.log(`${"-".repeat(ew)}  ${"-".repeat(pw)}  ${"-".repeat(header.shows.length)}`);
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
  console.error(`db:seed failed: ${message.replace(/\s+/g, " ").trim()}`);
  process.exitCode = 1;
}

main().catch(fail);
