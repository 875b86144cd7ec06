/**
 * The discover section of `npm run bench` (BENCH_SECTIONS=discover), also runnable alone:
 * `npx tsx --conditions react-server scripts/bench/discover.ts`.
 *
 * Two fresh `bench_discover_<size>_<timestamp>` databases on the local Postgres (TEST_DATABASE_URL
 * or postgres://postgres@127.0.0.1:5432/test), holding BENCH_DISCOVER_SMALL (1,000) and
 * BENCH_DISCOVER_LARGE (100,000) couples bulk-inserted with generate_series (two partners each, 6
 * interests per person from the catalogue, one or two adventure styles, a city-level place
 * scattered around ten cities, every fourth couple of a city at the city's own point: seatCrowds;
 * the viewer beside it). In process (the server's own functions, no HTTP), each sample
 * times a call on both databases back to back, so the machine's noise falls on both sizes and
 * the large/small ratio says how a call grows: p50/p99 of discover (what GET /api/discover runs:
 * searched on the request, as with no stored list for the viewer's inputs, and from the stored
 * list; and the search over the network that runs after a response), of
 * the dashboard's data (loadDashboard: the whole server-side read of /dashboard), and of the
 * current user (loadCurrentUser: what GET /api/v2/auth/me runs). Then, under `npm run bench`,
 * over HTTP at the large size: GET /dashboard against GET /api/v2/auth/me on the production build
 * (dashboardOverHttp). The databases are dropped at the end.
 */
import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import postgres from "postgres";
import type { Db } from "@/db/client";
import { loadDashboard } from "@/lib/dashboard/queries";
import { discoverSummaries } from "@/db/schema";
import { candidateQueries, discoverSuggestions, SEARCH_WINDOW, searchLists } from "@/lib/discover/queries";
import { INTEREST_VALUES } from "@/lib/interests/catalogue";
import { COUPLE_TYPE_VALUES } from "@/lib/couples/rules";
import { loadCurrentUser } from "@/lib/profile/queries";
import { sessionCookie } from "./accounts";
import { addressOf, callJson, getPage } from "./client";
import { ADMIN_URL, PAIRED_SETTINGS } from "./config";
import { alternate, type Target } from "./load";
import { scaleDatabase } from "./databases";
import { seatCrowds } from "./directory";
import { printAlternate, printTable } from "./report";
import { appEnv, ensureBuild, newSecret, startServer, stopGroup } from "./server";
import { percentile } from "./stats";

const CITIES: [number, number][] = [
  [38.72, -9.14],
  [51.51, -0.13],
  [52.52, 13.4],
  [48.86, 2.35],
  [41.9, 12.5],
  [40.42, -3.7],
  [52.37, 4.9],
  [59.33, 18.07],
  [50.85, 4.35],
  [53.35, -6.26],
];

/**
 * GET /dashboard (the server-rendered HTML, its whole body read) against GET /api/v2/auth/me on
 * the production build, one session for both, in alternating runs at the same load (the bench's
 * pairing: each dashboard run right after a /me run). Returns the failed requests.
 */
async function dashboardOverHttp(db: Db, databaseUrl: string, viewer: string, size: number): Promise<number> {
  await ensureBuild();
  const secret = newSecret();
  const cookie = await sessionCookie(db, viewer, secret, false);
  const { child } = await startServer(appEnv({ DATABASE_URL: databaseUrl }, secret));
  try {
    const me: Target = {
      name: "GET /api/v2/auth/me (cookie)",
      send: async (w) => {
        const body = await callJson("/api/v2/auth/me", addressOf(w), { headers: { cookie } });
        if (body.userId !== viewer) throw new Error("/me answered for another user");
      },
    };
    const dashboard: Target = {
      name: "GET /dashboard (cookie, full HTML)",
      send: (w) => getPage("/dashboard", addressOf(w), cookie),
    };
    // The floor of any page of this build: the root layout and a heading, no data (BENCH_BARE=1);
    // with the session cookie, the floor of a signed-in page (the route guard reads the cookie).
    const bare: Target = { name: "GET /dev/bare (reference: an empty page)", send: (w) => getPage("/dev/bare", addressOf(w)) };
    const bareSignedIn: Target = { name: "GET /dev/bare (cookie)", send: (w) => getPage("/dev/bare", addressOf(w), cookie) };
    for (const target of [me, dashboard, bare, bareSignedIn]) for (let i = 0; i < 20; i++) await target.send(i);
    console.log(
      `\nGET /dashboard vs GET /api/v2/auth/me over HTTP at ${size.toLocaleString("en")} couples, same session: ${PAIRED_SETTINGS}...`,
    );
    const { rows, errors } = await alternate(me, [dashboard, bare, bareSignedIn]);
    // Here the baseline ("base") is /me: the p50 ratio is the dashboard's render against /me.
    printAlternate(rows);
    return errors;
  } finally {
    await stopGroup(child);
  }
}

export type Figures = { p50: number; p99: number };
export const figures = (samples: number[]): Figures => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
};
export const ms = (value: number) => `${value.toFixed(1)} ms`;

/**
 * The same call on the small and the large database, one after the other in each sample (the
 * order swapping every sample), so the machine's noise falls on both sizes alike and their ratio
 * says how the call grows with size. `before` runs outside the timing, before each call.
 */
export async function timePair(
  samples: number,
  run: (db: Db) => Promise<unknown>,
  dbs: [Db, Db],
  before?: (db: Db) => Promise<unknown>,
): Promise<[Figures, Figures]> {
  const timed = async (db: Db) => {
    await before?.(db);
    const start = performance.now();
    await run(db);
    return performance.now() - start;
  };
  for (let i = 0; i < Math.min(10, samples); i++) for (const db of dbs) await timed(db);
  const out: [number[], number[]] = [[], []];
  for (let i = 0; i < samples; i++) {
    const order = i % 2 ? [1, 0] : [0, 1];
    for (const k of order) out[k]!.push(await timed(dbs[k]!));
  }
  return [figures(out[0]), figures(out[1])];
}

/** Postgres's md5(text)::uuid: the ids insertCouples gives. */
export const md5Uuid = (text: string) =>
  createHash("md5")
    .update(text)
    .digest("hex")
    .replace(/^(.{8})(.{4})(.{4})(.{4})/, "$1-$2-$3-$4-");

/** Couples from..to (1-based, inclusive), their partners and places, in three statements. */
async function insertCouples(sql: postgres.Sql, from: number, to: number) {
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
  await seatCrowds(sql, CITIES, to);
  // The viewer (couple 1) lives in its city, beside the crowd at the city's point, as the directory bench's viewer does.
  await sql`update locations set latitude = ${CITIES[1]![0] + 0.0023}, longitude = ${CITIES[1]![1] + 0.0022} where entity_id = md5('c1')::uuid`;
  // A network that was there before the run: its couples' match inputs changed an hour ago, not
  // while the viewer's stored lists were computed (past MATCH_CHANGES_TAKEN changes since, discover and the
  // dashboard compute them again, and 'from the stored list' would time that instead).
  await sql`update couples set match_changed_at = now() - interval '1 hour' where match_changed_at > now() - interval '1 hour'`;
  // Vacuumed, as autovacuum keeps a network that was there: an index-only scan reads no row.
  await sql`vacuum analyze`;
}

/** The section; `overHttp` adds the HTTP figure, which builds the app (under `npm run bench`). */
export async function benchDiscover({ overHttp }: { overHttp: boolean }): Promise<number> {
  // The dashboard's near couples are a directory page, which signs its cursor.
  process.env.AUTH_SECRET ??= "bench-discover-secret-0123456789abcdef";
  const sizes = [Number(process.env.BENCH_DISCOVER_SMALL ?? 1000), Number(process.env.BENCH_DISCOVER_LARGE ?? 100_000)];
  const samples = Number(process.env.BENCH_DISCOVER_SAMPLES ?? 200);
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  const databases: Awaited<ReturnType<typeof scaleDatabase>>[] = [];
  try {
    for (const size of sizes) databases.push(await scaleDatabase(admin, "discover", size, (sql, n) => insertCouples(sql, 1, n)));
    const [small, large] = databases as [(typeof databases)[0], (typeof databases)[0]];
    const dbs: [Db, Db] = [small.db, large.db];
    // The same viewer (couple 1) in both.
    const viewer = md5Uuid("u1");
    console.log(
      `\n== Discover and dashboard, in process, on Postgres: ${small.size.toLocaleString("en")} couples (inserted in ${small.fillS.toFixed(1)} s) and ` +
        `${large.size.toLocaleString("en")} (${large.fillS.toFixed(1)} s), ${samples} samples each, the two sizes interleaved (BENCH_DISCOVER_SAMPLES)`,
    );
    // A request with no stored list for the viewer's inputs (removed first, untimed): searched
    // among the SEARCH_WINDOW couples changed last and stored, then read as the request reads it.
    // Then the search after its response, over the network (what a stale list costs, off any
    // request), and a request from the stored list.
    const removeLists = (db: Db) => db.delete(discoverSummaries);
    const searched = await timePair(
      samples,
      async (db) => {
        await searchLists(db, viewer, SEARCH_WINDOW);
        return discoverSuggestions(db, viewer);
      },
      dbs,
      removeLists,
    );
    const network = await timePair(samples, (db) => searchLists(db, viewer, null), dbs, removeLists);
    const stored = await timePair(samples, (db) => discoverSuggestions(db, viewer), dbs);
    const dashboard = await timePair(samples, (db) => loadDashboard(db, viewer), dbs);
    const me = await timePair(samples, (db) => loadCurrentUser(db, viewer), dbs);
    const rows = [
      [`discover, searched on the request (among ${SEARCH_WINDOW.toLocaleString("en")})`, searched],
      ["discover, the network searched after the response", network],
      ["discover, from the stored list", stored],
      ["dashboard data (loadDashboard)", dashboard],
      ["current user (/me, loadCurrentUser)", me],
    ] as const;
    const table = rows.map(([label, [a, b]]) => [label, ms(a.p50), ms(a.p99), ms(b.p50), ms(b.p99), `${(b.p50 / a.p50).toFixed(2)}x`]);
    table.push([
      "dashboard / me (p50)",
      `${(dashboard[0].p50 / me[0].p50).toFixed(1)}x`,
      "",
      `${(dashboard[1].p50 / me[1].p50).toFixed(1)}x`,
      "",
      "",
    ]);
    const header = ["in process", `${small.size} p50`, "p99", `${large.size} p50`, "p99", "large/small p50"];
    printTable(header, table);
    console.log(`(${(await discoverSuggestions(large.db, viewer)).length} suggestions at ${large.size.toLocaleString("en")} couples)`);
    if (process.env.BENCH_DISCOVER_EXPLAIN === "1") {
      for (const { db, sql, size } of databases) {
        const { byInterest, byPlace } = await candidateQueries(db, viewer);
        const latest = await candidateQueries(db, viewer, undefined, SEARCH_WINDOW);
        for (const [label, query] of [
          ["by interest, the network", byInterest],
          [`by interest, the ${SEARCH_WINDOW} changed last`, latest.byInterest],
          ["by place", byPlace],
        ] as const) {
          if (!query) continue;
          const { sql: text, params } = query.toSQL();
          const plan = await sql.unsafe(`explain (analyze, buffers) ${text}`, params as never[]);
          console.log(`-- EXPLAIN ${label} at ${size} couples\n${plan.map((row) => row["QUERY PLAN"]).join("\n")}`);
        }
      }
    }
    if (overHttp) return await dashboardOverHttp(large.db, large.url, viewer, large.size);
    console.log("(GET /dashboard vs /me over HTTP: run through `npm run bench` with BENCH_SECTIONS=discover.)");
    return 0;
  } finally {
    for (const database of databases) await database.close();
    await admin.end({ timeout: 5 });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchDiscover({ overHttp: false }).then(
    (errors) => process.exit(errors ? 1 : 0),
    (error: unknown) => {
      console.error(`discover bench failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
