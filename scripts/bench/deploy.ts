/**
 * `BENCH_SECTIONS=deploy` (part of the default run): what a serverless deployment of the build
 * costs, measured on the bench's production build.
 *
 *   1. Function size: each route's bundle as the platform would package it, from the build's file
 *      traces: the route's own `.nft.json`, with the Next server's (`next-server.js.nft.json`,
 *      in every function), every file counted once, unzipped. The largest must stay under 250 MB.
 *   2. Cold start: a fresh production process (the app's server, as `npm start`) from its spawn
 *      to its first answer of `/login`, of `GET /api/v2/auth/me` and of a place search, each in a
 *      process of its own, BENCH_COLD_STARTS times (5), median and worst; beside a bare Next app's
 *      (bare-next.ts: built in the same run, `next start`) prerendered page and route handler,
 *      taken in turn with them. Target: under 1 s, and within 1.5x of the bare app's counterpart
 *      (the page for /login, the route handler for the two API calls).
 *   3. First against second place search in one fresh process, once the route's code is loaded: the
 *      first reads the gazetteer's index (the build's file), which must cost under 100 ms more
 *      than the second.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { createUsers } from "./accounts";
import { onCleanup } from "./cleanup";
import { DIST_DIR, PORT } from "./config";
import { pgliteDatabase, postgresDatabase } from "./databases";
import { BARE_PAGE, BARE_ROUTE, bareEnv, bareNextArgs, ensureBareNext } from "./bare-next";
import { appEnv, ensureBuild, newSecret, SERVER_ENTRY, stopGroup } from "./server";
import { printTable } from "./report";
import { median } from "./stats";

const FUNCTION_LIMIT_BYTES = 250 * 1024 * 1024;
const FIRST_SEARCH_BUDGET_MS = 100;
const COLD_START_TARGET_MS = 1000;
const COLD_START_TARGET_RATIO = 1.5;

/**
 * The build's environment on a fresh database with one signed-in user: Postgres when it answers,
 * the server then in serverless mode as on the platform (no migration at start; S3 named but never
 * written by the routes timed), else PGlite.
 */
async function deployDatabase(): Promise<{ env: NodeJS.ProcessEnv; cookie: string; label: string }> {
  const database = (await postgresDatabase()) ?? pgliteDatabase();
  onCleanup(database.drop);
  const secret = newSecret();
  // This process opens it to create the user (PGlite through env().PGLITE_DIR, read once).
  for (const key of ["DATABASE_URL", "PGLITE_DIR"]) delete process.env[key];
  Object.assign(process.env, database.env);
  const [account] = await createUsers(database, secret);
  const serverless = database.env.DATABASE_URL
    ? {
        SERVERLESS: "1",
        S3_BUCKET: "bench",
        S3_PRIVATE_BUCKET: "bench-private",
        S3_ACCESS_KEY_ID: "bench",
        S3_SECRET_ACCESS_KEY: "bench",
        S3_PUBLIC_URL: "https://img.bench.invalid",
      }
    : {};
  return {
    env: { ...appEnv(database.env, secret), ...serverless },
    cookie: account!.cookie,
    label: `${database.label}${database.env.DATABASE_URL ? ", serverless mode" : ""}`,
  };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function tracedFiles(nftFile: string): string[] {
  const { files } = JSON.parse(readFileSync(nftFile, "utf8")) as { files: string[] };
  return files.map((file) => path.resolve(path.dirname(nftFile), file));
}

function sizeOf(files: Iterable<string>): number {
  let total = 0;
  for (const file of files) {
    try {
      const stat = statSync(file);
      if (stat.isFile()) total += stat.size;
    } catch {
      // a traced optional file that is not there
    }
  }
  return total;
}

/** Every route's traced bundle size, largest first. */
export function functionSizes(distDir: string): { route: string; bytes: number }[] {
  const shared = tracedFiles(path.join(distDir, "next-server.js.nft.json"));
  const appDir = path.join(distDir, "server", "app");
  const traces = (readdirSync(appDir, { recursive: true }) as string[]).filter((file) => file.endsWith(".js.nft.json"));
  const middleware = path.join(distDir, "server", "middleware.js.nft.json");
  const entries = traces.map((file) => ({
    route: `/${file.replace(/\\/g, "/").replace(/\/?(page|route)\.js\.nft\.json$/, "")}`,
    nft: path.join(appDir, file),
  }));
  try {
    statSync(middleware);
    entries.push({ route: "middleware", nft: middleware });
  } catch {
    // no separate middleware trace in this build
  }
  return entries
    .map(({ route, nft }) => {
      const own = path.resolve(nft.replace(/\.nft\.json$/, ""));
      return { route, bytes: sizeOf(new Set([own, ...tracedFiles(nft), ...shared])) };
    })
    .sort((a, b) => b.bytes - a.bytes);
}

type Target = { url: string; headers?: Record<string, string> };

/** A fresh process (the app's own server as `npm start` runs it, unless `args` say otherwise), stopped when `work` is done. */
async function withFreshServer<T>(
  env: NodeJS.ProcessEnv,
  work: (origin: string, spawnedAt: number) => Promise<T>,
  args: string[] = [SERVER_ENTRY],
): Promise<T> {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...env, HOST: "127.0.0.1", PORT: String(PORT), TRUSTED_PROXY_HOPS: "1" },
    detached: true,
    stdio: "ignore",
  });
  try {
    return await work(`http://127.0.0.1:${PORT}`, spawnedAt);
  } finally {
    await stopGroup(child);
  }
}

/** Asks until the server answers 200 (it may not listen yet); the answer's own time. */
async function firstAnswer(origin: string, target: Target, deadlineMs = 90_000): Promise<number> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const t0 = performance.now();
    try {
      const response = await fetch(`${origin}${target.url}`, { headers: target.headers, signal: AbortSignal.timeout(30_000) });
      await response.arrayBuffer();
      if (response.status === 200) return performance.now() - t0;
      throw new Error(`${target.url} answered ${response.status}`);
    } catch (error) {
      const refused = (error as { cause?: { code?: string } }).cause?.code === "ECONNREFUSED";
      if (!refused || Date.now() > deadline) throw error;
      await sleep(20);
    }
  }
}

export async function benchDeploy(): Promise<number> {
  await ensureBuild();
  let errors = 0;
  console.log("\n== Deploy: function sizes (traced, unzipped), cold starts, first place search");
  const sizes = functionSizes(DIST_DIR);
  const largest = sizes[0]!;
  console.log(
    `${sizes.length} functions; largest ${largest.route} ${mb(largest.bytes)} (limit 250 MB), smallest ${mb(sizes.at(-1)!.bytes)}:`,
  );
  printTable(
    ["function", "size"],
    sizes.slice(0, 8).map(({ route, bytes }) => [route, mb(bytes)]),
  );
  if (largest.bytes >= FUNCTION_LIMIT_BYTES) {
    console.error(`  ${largest.route} is over the platform's 250 MB.`);
    errors++;
  }

  const runs = Math.max(1, Number(process.env.BENCH_COLD_STARTS ?? 5));
  await ensureBareNext(appEnv(null, newSecret()));
  const { env, cookie, label } = await deployDatabase();
  const search: Target = { url: "/api/locations/search/public?query=lisb&limit=5", headers: { "x-forwarded-for": "198.18.7.7" } };
  const bare = { env: bareEnv(env), args: bareNextArgs(PORT) };
  type Start = { name: string; target: Target; bare?: typeof bare; against?: { name: string; label: string } };
  const barePage = { name: "bare Next app: GET / (prerendered)", label: "the bare page" };
  const bareRoute = { name: "bare Next app: GET /api/bare (route)", label: "the bare route" };
  const starts: Start[] = [
    { name: barePage.name, target: { url: BARE_PAGE }, bare },
    { name: bareRoute.name, target: { url: BARE_ROUTE }, bare },
    { name: "GET /login", target: { url: "/login" }, against: barePage },
    { name: "GET /api/v2/auth/me (cookie)", target: { url: "/api/v2/auth/me", headers: { cookie } }, against: bareRoute },
    { name: "GET /api/locations/search/public", target: search, against: bareRoute },
  ];
  console.log(
    `\nCold start on ${label}: spawn of a fresh production process to its first answer, median of ${runs} (BENCH_COLD_STARTS), each taken in turn; target under ${COLD_START_TARGET_MS} ms and within ${COLD_START_TARGET_RATIO}x of the bare Next app's:`,
  );
  const samples = new Map<string, number[]>(starts.map(({ name }) => [name, []]));
  for (let i = 0; i < runs; i++) {
    for (const { name, target, bare } of starts) {
      try {
        const ms = await withFreshServer(
          bare?.env ?? env,
          async (origin, spawnedAt) => {
            await firstAnswer(origin, target);
            return performance.now() - spawnedAt;
          },
          bare?.args,
        );
        samples.get(name)!.push(ms);
      } catch (error) {
        // fetch's own message ("fetch failed") says nothing: its cause says why.
        const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : "";
        console.error(`  ${name}: ${error instanceof Error ? error.message : String(error)}${cause}`);
        errors++;
      }
    }
  }
  const rows = starts.flatMap(({ name, against }) => {
    const own = samples.get(name)!;
    if (!own.length) return [];
    const figures = [name, median(own).toFixed(0), Math.max(...own).toFixed(0)];
    if (!against) return [[...figures, "", "", ""]];
    const ratio = median(own) / median(samples.get(against.name)!);
    const misses = [
      ...(median(own) >= COLD_START_TARGET_MS ? [`over ${COLD_START_TARGET_MS} ms`] : []),
      ...(ratio > COLD_START_TARGET_RATIO ? [`over ${COLD_START_TARGET_RATIO}x`] : []),
    ];
    return [[...figures, `${ratio.toFixed(2)}x`, against.label, misses.length ? `misses the target (${misses.join(", ")})` : "on target"]];
  });
  printTable(["start", "median (ms)", "worst (ms)", "ratio", "of", "target"], rows);

  // In each fresh process: the route's first call with a one-letter query (the route's code loads,
  // the gazetteer is not touched: shorter queries answer [] before it), then the first search,
  // which reads the gazetteer's index, then the second. The first's extra over the second is the
  // index's cost alone.
  const pairs: { route: number; first: number; second: number }[] = [];
  for (let i = 0; i < runs; i++) {
    pairs.push(
      await withFreshServer(env, async (origin) => {
        await firstAnswer(origin, { url: "/api/health" });
        const route = await firstAnswer(origin, { ...search, url: "/api/locations/search/public?query=l&limit=5" });
        const first = await firstAnswer(origin, search);
        const second = await firstAnswer(origin, { ...search, url: "/api/locations/search/public?query=san%20fr&limit=5" });
        return { route, first, second };
      }),
    );
  }
  const extra = median(pairs.map((p) => p.first - p.second));
  const ms = (pick: (p: (typeof pairs)[number]) => number) => median(pairs.map(pick)).toFixed(1);
  console.log(
    `\nPlace search in a fresh process (medians of ${runs}): the route's first call (no index) ${ms((p) => p.route)} ms; then the first search ${ms((p) => p.first)} ms, the second ${ms((p) => p.second)} ms: the first costs ${extra.toFixed(1)} ms more (budget ${FIRST_SEARCH_BUDGET_MS} ms).`,
  );
  if (extra >= FIRST_SEARCH_BUDGET_MS) {
    console.error(
      `  The first place search costs ${extra.toFixed(0)} ms more than the second: over the ${FIRST_SEARCH_BUDGET_MS} ms budget.`,
    );
    errors++;
  }
  return errors;
}
