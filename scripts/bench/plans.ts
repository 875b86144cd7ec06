/**
 * The plans section of `npm run bench` (BENCH_SECTIONS=plans), also runnable alone:
 * `npx tsx --conditions react-server scripts/bench/plans.ts`.
 *
 * Two fresh `bench_plans_<size>_<timestamp>` databases on the local Postgres, holding
 * BENCH_PLANS_SMALL (1,000) and BENCH_PLANS_LARGE (100,000) plans bulk-inserted with
 * generate_series: four plans a conversation (one past, three upcoming: the most a conversation
 * may have), 2.5 conversations a couple, a tenth cancelled, the four people's answers, the past
 * ones reminded and asked 'How was it?' except those that ended within the last hour; the
 * upcoming ones spread over the next 180 days in five zones, never reminded yet (a backlog the
 * first sweep clears). The viewer (couple 1) is in the same number of conversations at both sizes.
 *
 * In process (the server's own functions, no HTTP), each sample times a call on both databases
 * back to back (discover's timePair), so the large/small ratio says how a call grows:
 *   - upcomingPlans: what `GET /api/plans?upcoming=1` and the 'Upcoming' of /dashboard and
 *     /messages run (one query function for all three);
 *   - the dashboard's whole server-side read (loadDashboard beside upcomingPlans, as the page runs them);
 *   - the due work's plan sweep (sendPlanReminders then askHowItWent, in one transaction as
 *     lib/scheduled/service.ts runs them), once with its backlog due (rolled back after each sample, so
 *     every sample does the same work) and once with nothing due (the minute after, the usual run).
 * Then the EXPLAIN ANALYZE of each of their reads and claims at the large size (claims rolled back).
 * Sizes: BENCH_PLANS_SMALL, BENCH_PLANS_LARGE; samples: BENCH_PLANS_SAMPLES (200) and
 * BENCH_PLANS_SWEEP_SAMPLES (20). The databases are dropped at the end.
 */
import { performance } from "node:perf_hooks";
import postgres from "postgres";
import type { Db } from "@/db/client";
import { transaction } from "@/db/transaction";
import { userAccount } from "@/lib/auth/users";
import { loadDashboard } from "@/lib/dashboard/queries";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { upcomingPlans } from "@/lib/plans/queries";
import { askHowItWent, sendPlanReminders } from "@/lib/plans/reminders";
import { ADMIN_URL } from "./config";
import { figures, md5Uuid, ms, timePair, type Figures } from "./discover";
import { scaleDatabase } from "./databases";
import { printTable } from "./report";

const PLANS_A_CONVERSATION = 4;
const ZONES = ["Europe/Lisbon", "Europe/Madrid", "America/New_York", "Asia/Tokyo", "Australia/Sydney"];
/** The upcoming plans are spread over this many minutes ahead (180 days, the furthest a plan may be). */
const AHEAD_MINUTES = 180 * 24 * 60;

const positiveInt = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number`);
  return value;
};

/** The network around `plans` plans: its conversations and couples (at least enough for the viewer's five conversations). */
function shape(plans: number) {
  const conversations = Math.max(Math.ceil(plans / PLANS_A_CONVERSATION), 25);
  return { plans, conversations, couples: Math.max(Math.ceil(conversations / 2.5), 10) };
}

async function fill(sql: postgres.Sql, size: number): Promise<void> {
  const { plans, conversations, couples } = shape(size);
  // Conversation c is between couple a = 1 + (c-1) % couples and the couple 1, 38 or 75 places on (messages' network).
  const coupleA = (c: string) => `(1 + (${c} - 1) % ${couples})`;
  const coupleB = (c: string) => `(1 + ((${c} - 1) % ${couples} + 1 + ((${c} - 1) / ${couples}) * 37) % ${couples})`;
  await sql.unsafe(`insert into users (id, email, password_hash, first_name, last_name, date_of_birth, email_verified_at)
    select md5('u' || g)::uuid, 'u' || g || '@bench.test', 'x', 'First' || g, 'Last' || g, date '1990-01-01', now()
    from generate_series(1, ${2 * couples}) g`);
  await sql.unsafe(`insert into couples (id, partner1_id, partner2_id, couple_name, status, is_visible, partner_a_verified, partner_b_verified, created_at)
    select md5('c' || g)::uuid, md5('u' || (2 * g - 1))::uuid, md5('u' || (2 * g))::uuid, 'Couple ' || g, 'active', true, true, true, now() - interval '60 days'
    from generate_series(1, ${couples}) g`);
  await sql.unsafe(`insert into conversations (id, couple_low_id, couple_high_id, last_activity_at, created_at)
    select md5('v' || c)::uuid, least(md5('c' || ${coupleA("c")})::uuid, md5('c' || ${coupleB("c")})::uuid),
      greatest(md5('c' || ${coupleA("c")})::uuid, md5('c' || ${coupleB("c")})::uuid), now() - interval '40 days', now() - interval '40 days'
    from generate_series(1, ${conversations}) c`);
  // Plan p is in conversation 1 + (p-1) % conversations, its k = (p-1) / conversations-th: k = 0 began
  // within the last 30 days, k = 1..3 begin within the next 180 (minutes scattered by a prime step).
  await sql.unsafe(`insert into plans (id, conversation_id, proposer_user_id, proposer_couple_id, title, starts_local, time_zone, starts_at,
      place_id, place_name, place_city, place_country, venue, sequence, cancelled_at, evening_reminded_at, soon_reminded_at, feedback_asked_at, created_at)
    select md5('p' || p)::uuid, md5('v' || c)::uuid, md5('u' || (2 * ${coupleA("c")} - 1))::uuid, md5('c' || ${coupleA("c")})::uuid,
      'Dinner ' || p, to_char(s at time zone z, 'YYYY-MM-DD"T"HH24:MI'), z, s,
      'bench:' || (p % 500), 'Place ' || (p % 500), 'City', 'Country', 'Venue ' || p, p % 3,
      case when p % 10 = 0 then now() - interval '1 day' end,
      case when s <= now() then s - interval '1 day' end, case when s <= now() then s - interval '2 hours' end,
      case when s <= now() - interval '4 hours' then s + interval '3 hours' end, now() - interval '35 days'
    from (select p, c, (array['${ZONES.join("','")}'])[1 + p % ${ZONES.length}] as z,
            date_trunc('minute', case when (p - 1) / ${conversations} = 0
              then now() - ((p * 7919) % (30 * 24 * 60)) * interval '1 minute'
              else now() + (5 + (p * 7919) % ${AHEAD_MINUTES}) * interval '1 minute' end) as s
          from (select p, 1 + (p - 1) % ${conversations} as c from generate_series(1, ${plans}) p) numbered) t`);
  // The four people's answers: couple a going, couple b's first partner going, the second maybe.
  await sql.unsafe(`insert into plan_answers (plan_id, user_id, answer)
    select md5('p' || p)::uuid, md5('u' || person)::uuid, case when person = 2 * b then 'maybe' else 'going' end
    from (select p, ${coupleA("c")} as a, ${coupleB("c")} as b
          from (select p, 1 + (p - 1) % ${conversations} as c from generate_series(1, ${plans}) p) numbered) t,
      lateral unnest(array[2 * a - 1, 2 * a, 2 * b - 1, 2 * b]) person`);
  await sql.unsafe("vacuum analyze");
  await sql.unsafe("checkpoint");
}

/** Thrown to roll a sample's transaction back: the sweep's claims and notifications undone. */
class RolledBack extends Error {}

/** The due work's plan sweep as lib/scheduled/service.ts runs it; rolled back unless `keep`. Answers how many people it told. */
async function sweep(db: Db, now: Date, keep = false): Promise<number> {
  let told = 0;
  try {
    await transaction(db, async (tx) => {
      told = (await sendPlanReminders(tx, now)) + (await askHowItWent(tx, now));
      if (!keep) throw new RolledBack();
    });
  } catch (error) {
    if (!(error instanceof RolledBack)) throw error;
  }
  return told;
}

/** A sweep timed alone (its samples one after another: each holds the due work's place in its database). */
async function timeSweep(db: Db, samples: number, now: Date): Promise<Figures> {
  for (let i = 0; i < Math.min(3, samples); i++) await sweep(db, now);
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    await sweep(db, now);
    times.push(performance.now() - start);
  }
  return figures(times);
}

/** The zone the evening-peak run is timed in (one of ZONES): its 18:00 reminds every plan of its next day at once. */
const PEAK_ZONE = "Europe/Lisbon";

/** The next 18:00 in `zone` at least `after` from now (the minute the evening reminders of that zone's plans fall due). */
function nextSixPm(zone: string, after: Date): Date {
  for (let t = Math.ceil(after.getTime() / 60_000) * 60_000; ; t += 60_000) {
    const clock = new Intl.DateTimeFormat("en-GB", { timeZone: zone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(t);
    if (clock === "18:00") return new Date(t);
  }
}

/**
 * The sweep's runs, as the due work meets them every minute: the first run after the fill (every
 * reminder of the next two hours and the evening ones of the zones past 18:00, all at once), a
 * minute after a run, the minute 18:00 strikes in PEAK_ZONE (the evening reminders of all its
 * plans of the next day), and a minute with nothing due. Each run before the timed one is committed.
 */
async function timeSweeps(db: Db, samples: number) {
  const now = new Date();
  const runs: { label: string; told: number; figures: Figures }[] = [];
  const timed = async (label: string, at: Date) =>
    runs.push({ label, told: await sweep(db, at), figures: await timeSweep(db, samples, at) });
  await timed("first run after the fill (the backlog)", now);
  await sweep(db, now, true);
  await timed("a minute after a run", new Date(now.getTime() + 60_000));
  const peak = nextSixPm(PEAK_ZONE, new Date(now.getTime() + 2 * 60_000));
  await sweep(db, new Date(peak.getTime() - 60_000), true);
  await timed(`18:00 in ${PEAK_ZONE} (its evening reminders)`, peak);
  await sweep(db, peak, true);
  await timed("a minute with nothing due", new Date(peak.getTime() + 1_000));
  return runs;
}

export async function benchPlans(): Promise<number> {
  const sizes = [positiveInt("BENCH_PLANS_SMALL", 1_000), positiveInt("BENCH_PLANS_LARGE", 100_000)];
  const samples = positiveInt("BENCH_PLANS_SAMPLES", 200);
  const sweepSamples = positiveInt("BENCH_PLANS_SWEEP_SAMPLES", 20);
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  const databases: Awaited<ReturnType<typeof scaleDatabase>>[] = [];
  try {
    for (const size of sizes) databases.push(await scaleDatabase(admin, "plans", size, fill));
    const [small, large] = databases as [(typeof databases)[0], (typeof databases)[0]];
    const dbs: [Db, Db] = [small.db, large.db];
    const viewerId = md5Uuid("u1");
    const viewer = new Map<Db, ActingCouple>();
    for (const db of dbs) viewer.set(db, await actingCouple(db, viewerId));
    // The sweep's statements explained while its backlog is due (the timed sweeps below commit runs).
    const explained = await explainReads(large.sql, large.size, viewer.get(large.db)!, new Date());
    const listed = await Promise.all(dbs.map(async (db) => (await upcomingPlans(db, viewer.get(db)!)).length));
    console.log(
      `\n== Plans, in process, on Postgres: ${small.size.toLocaleString("en")} plans (filled in ${small.fillS.toFixed(1)} s) and ` +
        `${large.size.toLocaleString("en")} (${large.fillS.toFixed(1)} s), ${PLANS_A_CONVERSATION} a conversation, 2.5 conversations a couple; ` +
        `the viewer's Upcoming lists ${listed.join(" and ")} plans; ${samples} samples each, the two sizes interleaved (BENCH_PLANS_SAMPLES)`,
    );
    const upcoming = await timePair(samples, (db) => upcomingPlans(db, viewer.get(db)!), dbs);
    const dashboard = await timePair(samples, (db) => Promise.all([loadDashboard(db, viewerId), upcomingPlans(db, viewer.get(db)!)]), dbs);
    const ratio = ([a, b]: [Figures, Figures]) => `${(b.p50 / a.p50).toFixed(2)}x`;
    printTable(
      ["in process", `${small.size} p50`, "p99", `${large.size} p50`, "p99", "large/small p50 (target 1.2x)"],
      [
        ["upcomingPlans (GET /api/plans?upcoming=1, the dashboard's Upcoming)", upcoming],
        ["dashboard's read (loadDashboard + upcomingPlans)", dashboard],
      ].map(([label, pair]) => {
        const [a, b] = pair as [Figures, Figures];
        return [label as string, ms(a.p50), ms(a.p99), ms(b.p50), ms(b.p99), ratio([a, b])];
      }),
    );

    const sweeps = await timeSweeps(large.db, sweepSamples);
    printTable(
      ["plan sweep at " + large.size + " plans (one run, one transaction)", "people told", "p50", "p99 (target under 1 s)"],
      sweeps.map(({ label, told, figures: { p50, p99 } }) => [label, String(told), ms(p50), ms(p99)]),
    );
    console.log(
      `  (${sweepSamples} samples each, BENCH_PLANS_SWEEP_SAMPLES, each rolled back so all do the same work; in process, so each is ` +
        `the database's time plus a round trip per statement; the notifications of a run are one set of statements for everyone told)`,
    );
    console.log(explained.join("\n"));
    return 0;
  } finally {
    for (const database of databases) await database.close();
    await admin.end({ timeout: 5 });
  }
}

/** The plans of the reads and the sweep's statements on plans at the large size, their SQL captured by a logging handle. */
async function explainReads(sql: postgres.Sql, size: number, member: ActingCouple, now: Date): Promise<string[]> {
  const out: string[] = [];
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const schema = await import("@/db/schema");
  const logged: { query: string; params: unknown[] }[] = [];
  const db = drizzle(sql, { schema, logger: { logQuery: (query, params) => void logged.push({ query, params }) } }) as unknown as Db;
  const explain = async (label: string, query: string, params: unknown[]) => {
    // An UPDATE's EXPLAIN ANALYZE runs it: in a transaction rolled back, so the claims stay unclaimed.
    const plan = await sql
      .begin(async (tx) => {
        const rows = await tx.unsafe(`explain (analyze, costs off, summary on) ${query}`, params as never[]);
        throw Object.assign(new RolledBack(), { rows });
      })
      .catch((error: unknown) => {
        if (error instanceof RolledBack) return (error as RolledBack & { rows: { "QUERY PLAN": string }[] }).rows;
        throw error;
      });
    // The lists of ids the reads are handed run to thousands of characters: their start says enough.
    const lines = plan.map(({ "QUERY PLAN": line }) => `    ${line.length > 200 ? `${line.slice(0, 200)}...` : line}`);
    out.push(`-- EXPLAIN ${label} at ${size.toLocaleString("en")} plans\n${lines.join("\n")}`);
  };
  const capture = async (label: string, run: () => Promise<unknown>, keep: (query: string) => boolean) => {
    logged.length = 0;
    await run();
    const seen = new Set<string>();
    const chosen = logged.filter(({ query }) => keep(query) && !seen.has(query) && seen.add(query));
    for (const [i, { query, params }] of chosen.entries()) await explain(`${label} (${i + 1}/${chosen.length})`, query, params);
  };
  const reads = (query: string) => /^\s*(?:select|\()/i.test(query);
  await capture("upcomingPlans", () => upcomingPlans(db, member, now), reads);
  // The sweep's own statements on plans (not the notifications it writes, one per person told).
  const onPlans = (query: string) => /^\s*(?:update "plans"|select .* from "plan)/is.test(query);
  await capture("plan sweep", () => sweep(db, now), onPlans);
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchPlans().then(
    (errors) => process.exit(errors ? 1 : 0),
    (error: unknown) => {
      console.error(`plans bench failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}

/** A seeded person's acting couple, as the session read hands it to the calls. */
async function actingCouple(db: Db, userId: string): Promise<ActingCouple> {
  const couple = (await userAccount(db, userId))?.couple;
  if (!couple) throw new Error(`the bench's person ${userId} has no couple`);
  return couple;
}
