/**
 * The directory's benchmark: p50/p99 of one directory page (`listDirectory`, the query
 * `GET /api/directory` and the /directory page run) with no filter, with an interest filter and
 * nearest-first within 50 km, at 1,000 and at 100,000 couples on real Postgres, plus the EXPLAIN
 * ANALYZE of each query at each size. Both sizes are timed back to back in every sample, and each
 * query's p50 and p99 ratios are printed against the 1.2x target. Each size gets a scale database of its own
 * (`bench_dir_<n>_<time>`, dropped afterwards), filled by the database itself with
 * generate_series: one statement per table, never a round trip per row.
 *
 * Run alone: `npx tsx --conditions react-server scripts/bench/directory.ts`, or from
 * `npm run bench` with BENCH_SECTIONS including `directory`. Sizes: BENCH_DIRECTORY_SIZES
 * (default "1000,100000"); samples per query: BENCH_DIRECTORY_SAMPLES (default 200); only some
 * queries: BENCH_DIRECTORY_ONLY (words of their names); BENCH_DIRECTORY_KEEP=1 keeps the databases.
 */
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "@/db/schema";
import type { Db } from "@/db/client";
import { listDirectory } from "@/lib/directory/queries";
import { directoryQuerySchema } from "@/lib/directory/schemas";
import { INTEREST_VALUES } from "@/lib/interests/catalogue";
import { ADMIN_URL } from "./config";
import { printTable } from "./report";
import { percentile } from "./stats";

const quiet = { onnotice: () => {} };
/** Centres couples are spread around (±2° ≈ 220 km): dense and sparse areas alike. */
const CENTRES: [number, number][] = [
  [38.72, -9.14],
  [51.51, -0.13],
  [52.52, 13.4],
  [48.86, 2.35],
  [41.39, 2.17],
  [40.42, -3.7],
  [52.37, 4.9],
  [55.68, 12.57],
  [43.65, -79.38],
  [40.71, -74.01],
  [34.05, -118.24],
  [-37.81, 144.96],
  [-33.87, 151.21],
  [35.68, 139.69],
  [19.43, -99.13],
  [-23.55, -46.63],
  [1.35, 103.82],
  [28.61, 77.21],
  [-33.92, 18.42],
  [59.33, 18.07],
];
const STYLES = [
  "global_adventurers",
  "culture_curators",
  "mindful_adventurers",
  "community_connectors",
  "culinary_connoisseurs",
  "career_climbers",
];

/** A page to time; `before` runs ahead of each read, untimed. */
const QUERIES: { name: string; params: Record<string, string>; before?: (scale: Scale) => Promise<unknown> }[] = [
  { name: "no filter (newest)", params: { sort: "newest" } },
  { name: "interest filter (hiking)", params: { interests: "hiking" } },
  { name: "nearest within 50 km", params: { sort: "nearest", distance: "50" } },
  // Beyond those three: the other sorts and the name search at the same sizes.
  { name: "nearest, any distance", params: { sort: "nearest" } },
  { name: "name search ('ple 12')", params: { q: "ple 12" } },
  { name: "first name and city ('First124 City')", params: { q: "First124 City" } },
  // Fewer matches than a page (21 at 100,000 couples): nothing stops a walk before the network's end.
  { name: "a rarer first name ('First1249 City')", params: { q: "First1249 City" } },
  { name: "most in common", params: { sort: "common" } },
  // What the request that finds a couple's kept ranking missing or stale pays (about once a day a couple).
  {
    name: "most in common, ranked afresh",
    params: { sort: "common" },
    before: (scale) => scale.client`delete from directory_common_ranks`,
  },
];

const arrayLiteral = (values: readonly string[]) => `array[${values.map((value) => `'${value.replace(/'/g, "''")}'`).join(",")}]::text[]`;

/**
 * A city-level place from either provider is one point per city (the gazetteer's, Google's city
 * centre), so a city's couples share it: every fourth couple of each centre sits at it, the crowd
 * the nearest sort meets in a real network. Couple g (id md5('c' || g)) lives around centre g % centres.length.
 */
export async function seatCrowds(sql: postgres.Sql, centres: readonly [number, number][], n: number): Promise<void> {
  const lats = `array[${centres.map(([lat]) => lat).join(",")}]::float8[]`;
  const lngs = `array[${centres.map(([, lng]) => lng).join(",")}]::float8[]`;
  await sql.unsafe(`update locations set latitude = (${lats})[1 + g % ${centres.length}], longitude = (${lngs})[1 + g % ${centres.length}], privacy_level = 'city'
    from generate_series(1, ${n}) g where entity_id = md5('c' || g)::uuid and (g / ${centres.length}) % 4 = 1`);
}

/** Fills an empty migrated database with `n` couples (two partners each) and their places. */
async function fill(sql: postgres.Sql, n: number): Promise<void> {
  const pool = arrayLiteral(INTEREST_VALUES);
  const lats = `array[${CENTRES.map(([lat]) => lat).join(",")}]::float8[]`;
  const lngs = `array[${CENTRES.map(([, lng]) => lng).join(",")}]::float8[]`;
  // `+ 0 * g` ties each subquery to its row: otherwise Postgres runs it once for all rows.
  // Couple g lives around centre g % 20, so its other traits vary with g / 20, never with g % 20.
  await sql.unsafe(`insert into users (id, email, password_hash, first_name, last_name, date_of_birth, email_verified_at, interests)
    select md5('u' || g)::uuid, 'u' || g || '@bench.test', 'x', 'First' || g, 'Last' || g, date '1990-01-01', now(),
      array(select v from unnest(${pool}) v where random() < 0.12 + 0 * g)
    from generate_series(1, ${2 * n}) g`);
  await sql.unsafe(`insert into couples (id, partner1_id, partner2_id, couple_name, couple_types, status, is_visible, partner_a_verified, partner_b_verified, created_at)
    select md5('c' || g)::uuid, md5('u' || (2 * g - 1))::uuid, md5('u' || (2 * g))::uuid, 'Couple ' || g,
      array[(${arrayLiteral(STYLES)})[1 + (g / 20) % 6]], 'active', (g / 20) % 20 <> 0, true, g % 3 <> 0, now() - random() * interval '365 days'
    from generate_series(1, ${n}) g`);
  await sql.unsafe(`insert into locations (entity_type, entity_id, place_id, display_location, latitude, longitude, city, country, privacy_level)
    select 'couple', md5('c' || g)::uuid, 'bench:' || g, 'Place ' || g,
      (${lats})[1 + g % ${CENTRES.length}] + (random() - 0.5) * 4, (${lngs})[1 + g % ${CENTRES.length}] + (random() - 0.5) * 4,
      'City', 'Country', (case (g / 20) % 10 when 0 then 'hidden' when 1 then 'country' when 2 then 'region' when 3 then 'full' else 'city' end)::privacy_level
    from generate_series(1, ${n}) g`);
  await seatCrowds(sql, CENTRES, n);
  // Couples joined and changed over the year, not all in the last minute (a kept 'most in common'
  // ranking takes in what changed since it was computed).
  await sql.unsafe("update couples set match_changed_at = created_at");
  // The viewer: couple 1, placed in Lisbon at city level.
  await sql.unsafe(
    `update locations set latitude = 38.7223, longitude = -9.1393, privacy_level = 'city' where entity_id = md5('c1')::uuid`,
  );
  // Vacuumed too, as autovacuum leaves a settled table: its visibility map lets index-only scans skip the rows.
  await sql.unsafe("vacuum analyze");
}

/** A plan's line with each list of ids (a kept ranking's, a search's few) said as how many it holds. */
const shortIds = (line: string) =>
  line.replace(/'\{([0-9a-f-]{36}(?:,[0-9a-f-]{36}){3,})\}'::uuid\[\]/g, (_, ids: string) => `'{${ids.split(",").length} ids}'::uuid[]`);

/** The issue's bound for a list at a network's size against the small set, p50 and p99. */
const RATIO_TARGET = 1.2;

/** A statement the page read sent, as the query logger saw it. */
type Statement = { query: string; params: unknown[] };

type Scale = {
  size: number;
  name: string;
  client: postgres.Sql;
  db: Db;
  viewerId: string;
  /** The longest statement of the last page read on this database (its main query), for its plan. */
  main: () => Statement;
  /** A search's first step in the last page read (fewMatches: its matches' ids, read from the trigram index), if any. */
  searchStep: () => Statement | undefined;
  /** Forgets the statements seen so far: the next page read starts afresh. */
  forget: () => void;
};

/** A fresh database of `size` couples, migrated and filled. */
async function scaleDatabase(admin: postgres.Sql, size: number): Promise<Scale> {
  const name = `bench_dir_${size}_${Date.now()}`;
  await admin.unsafe(`create database ${name}`);
  const client = postgres(ADMIN_URL.replace(/\/[^/]*$/, `/${name}`), { max: 4, ...quiet });
  try {
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    let seen: Statement[] = [];
    const db = drizzle(client, { schema, logger: { logQuery: (query, params) => void seen.push({ query, params }) } });
    await migrate(db, { migrationsFolder: "db/migrations" });
    const started = Date.now();
    await fill(client, size);
    console.log(`Directory at ${size.toLocaleString("en-US")} couples: filled in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const [viewer] = await client`select id from users where id = md5('u1')::uuid`;
    const main = () => seen.reduce((longest, statement) => (statement.query.length > longest.query.length ? statement : longest));
    const searchStep = () => {
      const page = main();
      return seen.find((statement) => statement !== page && statement.query.includes(" ilike "));
    };
    return {
      size,
      name,
      client,
      db: db as unknown as Db,
      viewerId: viewer!.id as string,
      main,
      searchStep,
      forget: () => void (seen = []),
    };
  } catch (error) {
    await client.end();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    throw error;
  }
}

/**
 * Runs the section; a query that fails throws, so it answers 0 failed requests. Both sizes are
 * filled first, then each query is timed on both back to back in every sample (the order turning
 * each time), so the machine's noise falls on both and the ratio says how the page grows.
 */
export async function benchDirectory(): Promise<number> {
  process.env.AUTH_SECRET ??= "bench-directory-secret-0123456789abcdef";
  const sizes = (process.env.BENCH_DIRECTORY_SIZES ?? "1000,100000").split(",").map(Number);
  const samples = Number(process.env.BENCH_DIRECTORY_SAMPLES ?? 200);
  const admin = postgres(ADMIN_URL, { max: 1, ...quiet });
  const scales: Scale[] = [];
  try {
    console.log(
      `\n== Directory: one page at ${sizes.map((n) => n.toLocaleString("en-US")).join(" and ")} couples, ${samples} samples each, back to back`,
    );
    for (const size of sizes) scales.push(await scaleDatabase(admin, size));
    const [small, large] = [scales[0]!, scales.at(-1)!];
    const rows: string[][] = [];
    const plans: string[] = [];
    // BENCH_DIRECTORY_ONLY: the queries whose names contain one of its comma-separated words.
    const only = process.env.BENCH_DIRECTORY_ONLY?.split(",").filter(Boolean);
    for (const { name: label, params, before } of QUERIES.filter(({ name }) => !only || only.some((word) => name.includes(word)))) {
      const query = directoryQuerySchema.parse(params);
      const run = (scale: Scale) => listDirectory(scale.db, scale.viewerId, query);
      for (const scale of [small, large])
        for (let i = 0; i < 10; i++) {
          await before?.(scale);
          await run(scale);
        }
      const times = new Map<Scale, number[]>([
        [small, []],
        [large, []],
      ]);
      const cards = new Map<Scale, number>();
      for (let i = 0; i < samples; i++)
        for (const scale of i % 2 ? [large, small] : [small, large]) {
          await before?.(scale);
          const t = performance.now();
          cards.set(scale, (await run(scale)).data.length);
          times.get(scale)!.push(performance.now() - t);
        }
      const [a, b] = [small, large].map((scale) => {
        const sorted = times.get(scale)!.sort((x, y) => x - y);
        return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
      }) as [{ p50: number; p99: number }, { p50: number; p99: number }];
      const [r50, r99] = [b.p50 / a.p50, b.p99 / a.p99];
      rows.push([
        label,
        a.p50.toFixed(2),
        a.p99.toFixed(2),
        b.p50.toFixed(2),
        b.p99.toFixed(2),
        `${r50.toFixed(2)}x`,
        `${r99.toFixed(2)}x`,
        `${cards.get(small)} / ${cards.get(large)}`,
        `${RATIO_TARGET}x: ${r50 <= RATIO_TARGET && r99 <= RATIO_TARGET ? "met" : "MISSED"}`,
      ]);
      // The page's main query at each size: the longest statement of one more read (the viewer's
      // couple and the cards' connection states are read beside it), and a search's first step.
      for (const scale of [small, large]) {
        await before?.(scale);
        scale.forget();
        await run(scale);
        const step = scale.searchStep();
        const statements: [string, Statement][] = [["page", scale.main()]];
        if (step) statements.push(["search's first step", step]);
        for (const [part, { query: text, params: values }] of statements) {
          const plan = await scale.client.unsafe(`explain (analyze, buffers, costs off, summary on) ${text}`, values as never[]);
          plans.push(
            `-- ${label} at ${scale.size.toLocaleString("en-US")} couples: ${part}\n${plan.map((line) => `    ${shortIds(String(line["QUERY PLAN"]))}`).join("\n")}`,
          );
        }
      }
    }
    const [n, m] = [small.size.toLocaleString("en-US"), large.size.toLocaleString("en-US")];
    printTable(["query", `${n} p50 (ms)`, "p99", `${m} p50 (ms)`, "p99", "p50 ratio", "p99 ratio", "cards", "target"], rows);
    console.log(`\n${plans.join("\n")}`);
  } finally {
    for (const scale of scales) {
      await scale.client.end();
      // BENCH_DIRECTORY_KEEP=1 keeps the databases, to look into a plan.
      if (process.env.BENCH_DIRECTORY_KEEP === "1") console.log(`Kept: ${scale.name}`);
      else await admin.unsafe(`drop database if exists ${scale.name} with (force)`);
    }
    await admin.end();
  }
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchDirectory().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
