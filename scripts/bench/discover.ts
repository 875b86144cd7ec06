/**
 * The discover section of `npm run bench` (BENCH_SECTIONS=discover), also runnable alone:
 * `npx tsx --conditions react-server scripts/bench/discover.ts`.
 *
 * On a fresh `bench_discover_<timestamp>` database of the local Postgres (TEST_DATABASE_URL or
 * postgres://postgres@127.0.0.1:5432/test), couples are bulk-inserted with generate_series
 * (two partners each, 6 interests per person from the catalogue, one or two adventure styles,
 * a city-level place scattered around ten cities), first BENCH_DISCOVER_SMALL (1,000), then up to
 * BENCH_DISCOVER_LARGE (100,000). At each size, in process (the server's own functions, no HTTP):
 * p50/p99 of discover (what GET /api/discover runs: searched and ranked, as when its stored list
 * is missing or stale, and from the stored list), of the dashboard's data (loadDashboard: the
 * whole server-side read of /dashboard), and of the current user (loadCurrentUser: what GET
 * /api/v2/auth/me runs), and the dashboard/me ratio. The database is dropped at the end.
 */
import { performance } from "node:perf_hooks";
import postgres from "postgres";
import { openDatabase } from "@/db/client";
import { loadDashboard } from "@/lib/dashboard/queries";
import { candidateQueries, discoverSuggestions, SUMMARY_TTL_MS } from "@/lib/discover/queries";
import { INTEREST_VALUES } from "@/lib/interests/catalogue";
import { COUPLE_TYPE_VALUES } from "@/lib/couples/rules";
import { loadCurrentUser } from "@/lib/profile/queries";
import { percentile } from "../stats";

const CITIES: [number, number][] = [
  [38.72, -9.14], [51.51, -0.13], [52.52, 13.4], [48.86, 2.35], [41.9, 12.5],
  [40.42, -3.7], [52.37, 4.9], [59.33, 18.07], [50.85, 4.35], [53.35, -6.26],
];

type Figures = { p50: number; p99: number };
const figures = (samples: number[]): Figures => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function time(samples: number, run: () => Promise<unknown>): Promise<Figures> {
  for (let i = 0; i < Math.min(10, samples); i++) await run();
  const out: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    await run();
    out.push(performance.now() - start);
  }
  return figures(out);
}

/** Couples from..to (1-based, inclusive), their partners and places, in three statements. */
export async function insertCouples(sql: postgres.Sql, from: number, to: number) {
  const interests = sql.array([...INTEREST_VALUES]);
  const styles = sql.array([...COUPLE_TYPE_VALUES]);
  const ni = INTEREST_VALUES.length;
  const ns = COUPLE_TYPE_VALUES.length;
  await sql`
    insert into users (id, email, password_hash, first_name, last_name, date_of_birth, email_verified_at, occupation, interests)
    select md5('u' || i)::uuid, 'bench' || i || '@bench.test', 'x', 'P' || i, 'Bench', '1990-01-01', now(), 'Engineer',
      array(select (${interests}::text[])[1 + ((i * 7 + k * k * 13 + (i / 3) * k) % ${ni})] from generate_series(1, 6) k)
    from generate_series(${2 * from - 1}::int, ${2 * to}::int) i`;
  await sql`
    insert into couples (id, partner1_id, partner2_id, couple_name, couple_types, interests, status, is_visible, partner_a_verified, partner_b_verified, is_verified)
    select md5('c' || i)::uuid, md5('u' || (2 * i - 1))::uuid, md5('u' || (2 * i))::uuid, 'Bench couple ' || i,
      array[(${styles}::text[])[1 + (i % ${ns})], (${styles}::text[])[1 + ((i / 7) % ${ns})]],
      (select array(select distinct unnest(a.interests || b.interests)) from users a, users b where a.id = md5('u' || (2 * i - 1))::uuid and b.id = md5('u' || (2 * i))::uuid),
      'active', true, true, true, true
    from generate_series(${from}::int, ${to}::int) i`;
  await sql`
    insert into locations (entity_type, entity_id, place_id, display_location, latitude, longitude, city, country, privacy_level)
    select 'couple', md5('c' || i)::uuid, 'bench:' || i, 'Bench place ' || i,
      (${sql.array(CITIES.map((c) => c[0]))}::float8[])[1 + (i % 10)] + ((i * 37) % 1000) / 500.0 - 1,
      (${sql.array(CITIES.map((c) => c[1]))}::float8[])[1 + (i % 10)] + ((i * 91) % 1000) / 500.0 - 1,
      'Bench City', 'Benchland', 'city'
    from generate_series(${from}::int, ${to}::int) i`;
  await sql`analyze`;
}

export async function runDiscoverBench(): Promise<void> {
  // The dashboard's near couples are a directory page, which signs its cursor.
  process.env.AUTH_SECRET ??= "bench-discover-secret-0123456789abcdef";
  const adminUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  const small = Number(process.env.BENCH_DISCOVER_SMALL ?? 1000);
  const large = Number(process.env.BENCH_DISCOVER_LARGE ?? 100_000);
  const samples = Number(process.env.BENCH_DISCOVER_SAMPLES ?? 100);
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const name = `bench_discover_${Date.now()}`;
  await admin.unsafe(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase(url.toString());
  const sql = postgres(url.toString(), { max: 1, onnotice: () => {} });
  try {
    await handle.migrate();
    const db = handle.db;
    const viewer = (await sql`select md5('u1')::uuid::text as id`)[0]!.id as string;
    console.log(`\n== Discover and dashboard, in process, on Postgres (${samples} samples each, one at a time)`);
    let inserted = 0;
    for (const size of [small, large]) {
      const started = performance.now();
      await insertCouples(sql, inserted + 1, size);
      inserted = size;
      const insertS = (performance.now() - started) / 1000;
      // Searched and ranked (what a missing or stale stored list costs: each call's clock a day on), then from the stored list.
      let days = 0;
      const search = await time(samples, () => discoverSuggestions(db, viewer, undefined, new Date(Date.now() + ++days * SUMMARY_TTL_MS)));
      await discoverSuggestions(db, viewer);
      const discover = await time(samples, () => discoverSuggestions(db, viewer));
      const dashboard = await time(samples, () => loadDashboard(db, viewer));
      const me = await time(samples, () => loadCurrentUser(db, viewer));
      const found = (await discoverSuggestions(db, viewer)).length;
      if (process.env.BENCH_DISCOVER_EXPLAIN === "1") {
        const { byInterest, byPlace } = await candidateQueries(db, viewer);
        for (const [label, query] of [["by interest", byInterest], ["by place", byPlace]] as const) {
          if (!query) continue;
          const { sql: text, params } = query.toSQL();
          const plan = await sql.unsafe(`explain (analyze, buffers) ${text}`, params as never[]);
          console.log(`-- EXPLAIN ${label} at ${size} couples\n${plan.map((row) => row["QUERY PLAN"]).join("\n")}`);
        }
      }
      console.log(
        `${size.toLocaleString("en")} couples (inserted in ${insertS.toFixed(1)} s): discover searched p50 ${ms(search.p50)} p99 ${ms(search.p99)}, stored p50 ${ms(discover.p50)} p99 ${ms(discover.p99)} (${found} suggestions); ` +
          `dashboard data p50 ${ms(dashboard.p50)} p99 ${ms(dashboard.p99)}; current user (/me) p50 ${ms(me.p50)} p99 ${ms(me.p99)}; ` +
          `dashboard/me p50 ${(dashboard.p50 / me.p50).toFixed(2)}x`,
      );
    }
  } finally {
    await sql.end({ timeout: 5 });
    await handle.close();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end({ timeout: 5 });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runDiscoverBench().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`discover bench failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
