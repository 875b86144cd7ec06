/**
 * `npm run bench`: a production build measured over loopback, against a baseline in the same build.
 *
 *   1. `next build` into .next-bench (skipped with BENCH_SKIP_BUILD=1), so it never touches .next;
 *   2. for each database (BENCH_DATABASES, default "pglite,postgres"): PGlite in a temp folder, or a
 *      fresh `bench_<timestamp>` on the local Postgres (TEST_DATABASE_URL or
 *      postgres://postgres@127.0.0.1:5432/test; skipped when it does not answer); verified users
 *      inserted directly, paired into couples so /api/v2/auth/me and /profile answer 200, each with
 *      a browser session cookie;
 *   3. the app's server (server.ts, as `npm start`) on 127.0.0.1:3199 (BENCH_PORT) with TRUSTED_PROXY_HOPS=1
 *      (the bench plays the proxy: each virtual user's X-Forwarded-For is its address) and
 *      BENCH_BARE=1, which opens /api/bench/bare (JSON and nothing else: the baseline);
 *   4. the ratios: BENCH_ROUNDS rounds (default 3) in which /api/v2/auth/me, /login, /profile and
 *      the place search each run BENCH_PAIR_S seconds (default 5) right after a run of the
 *      baseline, at BENCH_CLIENTS clients, the order rotating every round, so the machine's noise
 *      falls on both sides of each ratio;
 *   5. timed runs at BENCH_CLIENTS clients for BENCH_DURATION_S seconds each (GET
 *      /api/v2/auth/me; a write, PATCH /api/notifications/read), a sign-in flood of unknown
 *      e-mails for BENCH_FLOOD_S seconds with /api/v2/auth/me measured during it, and bounded
 *      request loops (current user, sign-in, place search);
 *   6. the server is stopped and its database dropped (also on failure and on Ctrl-C); at the end
 *      the in-process figures (gazetteer search time, images per second: scripts/bench-in-process.ts).
 *
 * A quick run (~3 min): BENCH_ROUNDS=2 BENCH_PAIR_S=3 BENCH_DURATION_S=3 BENCH_FLOOD_S=3.
 * BENCH_CPU_PROF=<folder> makes the server write a V8 CPU profile (.cpuprofile) there when it stops.
 *
 * Users are created before the server starts: PGlite is single-process, so the script cannot
 * write to the data folder while the server holds it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { openDatabase, type Db } from "@/db/client";
import { encode } from "next-auth/jwt";
import { couples, users } from "@/db/schema";
import { hashPassword } from "@/lib/auth/password";
import { createSession } from "@/lib/auth/sessions";
import { BROWSER_SESSION_SECONDS } from "@/lib/auth/session-token";
import { SEARCH_QUERIES, runInProcessBenchmarks } from "./bench-in-process";
import { benchForum } from "./bench/forum";
import { runDiscoverBench } from "./bench/discover";
import { benchDirectory } from "./bench/directory";
import { benchLighthouse } from "./bench/lighthouse";
import { percentile } from "./stats";

/** BENCH_PORT: several worktrees on one machine each bench on a port of their own. */
const PORT = Number(process.env.BENCH_PORT ?? 3199);
const ORIGIN = `http://127.0.0.1:${PORT}`;
/** BENCH_DIST_DIR: with BENCH_SKIP_BUILD=1, another production build of this tree (the browser tests' one). */
const DIST_DIR = process.env.BENCH_DIST_DIR ?? ".next-bench";
const NEXT_BIN = path.join("node_modules", "next", "dist", "bin", "next");
const TSX_CLI = path.join("node_modules", "tsx", "dist", "cli.mjs");
/** Timed runs: seconds each and clients at once (60 s at 50 clients unless told otherwise), and the flood's seconds. */
const positive = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};
const DURATION_S = positive("BENCH_DURATION_S", 60);
const CLIENTS = Math.round(positive("BENCH_CLIENTS", 50));
const FLOOD_S = positive("BENCH_FLOOD_S", 30);
/** The alternating runs: rounds, and seconds of each run. */
const ROUNDS = Math.round(positive("BENCH_ROUNDS", 3));
const PAIR_S = positive("BENCH_PAIR_S", 5);
const DATABASES = (process.env.BENCH_DATABASES ?? "pglite,postgres").split(",").map((kind) => kind.trim());
for (const kind of DATABASES)
  if (kind !== "postgres" && kind !== "pglite") throw new Error(`BENCH_DATABASES: unknown "${kind}" (pglite, postgres)`);
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const USER_COUNT = 20;
const PASSWORD = "Bench-Pass-2026!";
const REQUEST_TIMEOUT_MS = 15_000;
/** No phase runs longer than this; requests not sent by then count as errors. */
const PHASE_BUDGET_MS = 180_000;
const READY_TIMEOUT_MS = 90_000;
/** The app is served over http://localhost here, so the cookie has its plain name (also its JWE salt). */
const SESSION_COOKIE = "authjs.session-token";

const quiet = { onnotice: () => {} };
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------- cleanup, run once, LIFO

const cleanups: (() => unknown)[] = [];
let cleaning: Promise<void> | undefined;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const step of cleanups.reverse()) {
      try {
        await step();
      } catch (error) {
        console.error(`cleanup: ${message(error)}`);
      }
    }
  })();
  return cleaning;
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping the server and dropping the database...`);
    void cleanup().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------- database

type BenchDatabase = { env: Record<string, string>; label: string; drop: () => Promise<void> };

function pgliteDatabase(): BenchDatabase {
  const dir = mkdtempSync(path.join(os.tmpdir(), "couples-bench-"));
  return {
    env: { PGLITE_DIR: path.join(dir, "pglite") },
    label: `PGlite in ${dir}`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A fresh database on the local Postgres, or null when it does not answer. */
async function postgresDatabase(): Promise<BenchDatabase | null> {
  const admin = postgres(ADMIN_URL, { max: 1, connect_timeout: 3, ...quiet });
  try {
    await admin`select 1`;
  } catch {
    await admin.end({ timeout: 1 });
    return null;
  }
  const name = `bench_${Date.now()}`;
  try {
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    label: `Postgres database ${name}`,
    drop: async () => {
      const sql = postgres(ADMIN_URL, { max: 1, ...quiet });
      try {
        await sql.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await sql.end({ timeout: 5 });
      }
    },
  };
}

type Account = { id: string; email: string; cookie: string };

/** Users in couples, each with a live browser session and its cookie (as a sign-in would set it). */
async function createUsers(database: BenchDatabase, secret: string): Promise<Account[]> {
  const handle = await openDatabase(database.env.DATABASE_URL);
  try {
    await handle.migrate();
    const hashes = await Promise.all(Array.from({ length: USER_COUNT }, () => hashPassword(PASSWORD)));
    const accounts = await handle.db
      .insert(users)
      .values(
        hashes.map((passwordHash, i) => ({
          email: `bench${i}@bench.couples.test`,
          passwordHash,
          emailVerifiedAt: new Date(),
          firstName: "Bench",
          lastName: `User${i}`,
          dateOfBirth: "1990-01-01",
          occupation: "Load tester",
        })),
      )
      .returning({ id: users.id, email: users.email });
    // Couples make the profile complete: /me then answers 200 and runs its full join.
    const pairs = [];
    for (let i = 0; i + 1 < accounts.length; i += 2) {
      pairs.push({ partner1Id: accounts[i]!.id, partner2Id: accounts[i + 1]!.id, coupleName: `Bench pair ${i / 2}` });
    }
    await handle.db.insert(couples).values(pairs);
    return await Promise.all(
      accounts.map(async (account, i) => ({ ...account, cookie: await sessionCookie(handle.db, account.id, secret, i % 2 === 1) })),
    );
  } finally {
    await handle.close();
  }
}

/** A live browser session for a verified user with a complete profile, and its cookie (as a sign-in would set it). */
async function sessionCookie(db: Db, userId: string, secret: string, isPartnerB: boolean): Promise<string> {
  const sid = await createSession(db, userId, "browser");
  const claims = { sub: userId, sid, emailVerified: true, profileComplete: true, isPartnerB };
  const token = await encode({ token: claims, secret, salt: SESSION_COOKIE, maxAge: BROWSER_SESSION_SECONDS });
  return `${SESSION_COOKIE}=${token}`;
}

// ---------------------------------------------------------------- processes

/** Everything the build and the server see: production, the baseline route, our database, a throwaway secret. */
function appEnv(database: BenchDatabase | null, secret: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_DIST_DIR: DIST_DIR,
    NEXT_TELEMETRY_DISABLED: "1",
    AUTH_SECRET: secret,
    APP_URL: `http://localhost:${PORT}`,
    BENCH_BARE: "1",
  };
  // Never the developer's database or mail provider.
  for (const key of ["DATABASE_URL", "PGLITE_DIR", "RESEND_API_KEY", "ENABLE_DEV_OUTBOX"]) delete env[key];
  return { ...env, ...database?.env };
}

const newSecret = () => randomBytes(36).toString("base64url"); // 48 characters

/** A Node script in its own process group, so stopping it also stops the workers it forks. */
function spawnGroup(args: string[], env: NodeJS.ProcessEnv, stdio: "inherit" | "pipe"): ChildProcess {
  const child = spawn(process.execPath, args, { env, detached: true, stdio: ["ignore", stdio, stdio] });
  cleanups.push(() => stopGroup(child));
  return child;
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  signalGroup("SIGTERM");
  if ((await Promise.race([exited.then(() => true), sleep(5000).then(() => false)])) === false) signalGroup("SIGKILL");
}

/**
 * `next build` with a custom distDir rewrites tsconfig.json (adds .next-bench type globs) and
 * next-env.d.ts (imports .next-bench types): put both back so the bench leaves no diff.
 */
async function build(env: NodeJS.ProcessEnv): Promise<void> {
  const touched = ["tsconfig.json", "next-env.d.ts"].map((file) => ({
    file,
    before: existsSync(file) ? readFileSync(file, "utf8") : null,
  }));
  const started = Date.now();
  console.log(`Building into ${DIST_DIR}/ (BENCH_SKIP_BUILD=1 reuses the last build)...`);
  try {
    const child = spawnGroup([NEXT_BIN, "build"], env, "inherit");
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    if (code !== 0) throw new Error(`next build failed (exit ${code})`);
  } finally {
    for (const { file, before } of touched) {
      const now = existsSync(file) ? readFileSync(file, "utf8") : null;
      if (now === before) continue;
      if (before === null) rmSync(file, { force: true });
      else writeFileSync(file, before);
    }
  }
  console.log(`Build done in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
}

async function answers(): Promise<boolean> {
  try {
    const response = await fetch(`${ORIGIN}/api/csrf-token`, { signal: AbortSignal.timeout(2000) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

/** Starts the app's server on loopback only; resolves once an API route (and so the database) answers. */
async function startServer(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; log: () => string }> {
  if (await answers()) throw new Error(`something already answers on port ${PORT}; stop it first`);
  // BENCH_CPU_PROF=<folder>: the server writes a V8 CPU profile there when it stops (tsx as a loader,
  // so the profiled process is the server itself; the flag is not allowed in NODE_OPTIONS). Node
  // writes it only on a normal exit, hence the SIGTERM handler.
  const profile = process.env.BENCH_CPU_PROF;
  const exitOnTerm = `data:text/javascript,process.once("SIGTERM",()=>process.exit(0))`;
  const script = profile
    ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(profile)}`, "--import", exitOnTerm, "--import", "tsx", "server.ts"]
    : [TSX_CLI, "server.ts"];
  const child = spawnGroup(script, { ...env, HOST: "127.0.0.1", PORT: String(PORT), TRUSTED_PROXY_HOPS: "1" }, "pipe");
  const lines: string[] = [];
  // The last lines of its output, to show when it fails to start.
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString().split("\n").filter(Boolean));
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const log = () => lines.slice(-40).join("\n");
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await answers())) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${log()}`);
    if (Date.now() > deadline) throw new Error(`the server did not answer within ${READY_TIMEOUT_MS / 1000} s:\n${log()}`);
    await sleep(250);
  }
  return { child, log };
}

// ---------------------------------------------------------------- memory

function processRssKb(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** The server and every process under it (`next start` may fork the actual server). */
function processTree(pid: number): number[] {
  const found = [pid];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
      for (const child of children ? children.split(/\s+/).map(Number) : []) found.push(...processTree(child));
    }
  } catch {
    // the process ended meanwhile
  }
  return found;
}

function rss(pid: number): string {
  const parts = processTree(pid).map((p) => ({ pid: p, mb: processRssKb(p) / 1024 }));
  const total = parts.reduce((sum, p) => sum + p.mb, 0);
  const detail = parts.length > 1 ? ` (${parts.map((p) => `pid ${p.pid}: ${p.mb.toFixed(0)}`).join(", ")})` : "";
  return `${total.toFixed(0)} MiB${detail}`;
}

// ---------------------------------------------------------------- load

type Outcome = { latencies: number[]; failures: Map<string, number>; skipped: number; seconds: number };

/**
 * A fixed number of requests through `concurrency` workers (each a virtual user with its own
 * address). Only successful requests give a latency; anything else is counted by reason.
 */
async function runLoad(total: number, concurrency: number, send: (i: number, worker: number) => Promise<void>): Promise<Outcome> {
  const latencies: number[] = [];
  const failures = new Map<string, number>();
  let next = 0;
  let skipped = 0;
  const deadline = Date.now() + PHASE_BUDGET_MS;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (next < total) {
        const i = next++;
        if (Date.now() > deadline) {
          skipped++;
          continue;
        }
        const t0 = performance.now();
        try {
          await send(i, worker);
          latencies.push(performance.now() - t0);
        } catch (error) {
          const reason = message(error);
          failures.set(reason, (failures.get(reason) ?? 0) + 1);
        }
      }
    }),
  );
  return { latencies, failures, skipped, seconds: (performance.now() - started) / 1000 };
}

/** `concurrency` workers sending for `seconds` (each a virtual user); failures are counted by reason. */
async function runFor(seconds: number, concurrency: number, send: (worker: number) => Promise<void>): Promise<Outcome & { total: number }> {
  const latencies: number[] = [];
  const failures = new Map<string, number>();
  const deadline = Date.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (Date.now() < deadline) {
        const t0 = performance.now();
        try {
          await send(worker);
          latencies.push(performance.now() - t0);
        } catch (error) {
          const reason = message(error).slice(0, 60);
          failures.set(reason, (failures.get(reason) ?? 0) + 1);
        }
      }
    }),
  );
  const failed = [...failures.values()].reduce((a, b) => a + b, 0);
  return { latencies, failures, skipped: 0, seconds: (performance.now() - started) / 1000, total: latencies.length + failed };
}

/** A distinct client address per virtual user, from the benchmarking range 198.18.0.0/15. */
const addressOf = (worker: number) => `198.18.${worker >> 8}.${worker & 255}`;

async function callJson(pathname: string, address: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const response = await fetch(`${ORIGIN}${pathname}`, {
    ...init,
    headers: { "x-forwarded-for": address, ...init.headers },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.status} ${text.slice(0, 160)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** A page: 200 with HTML, never a redirect (which would mean the guard sent us elsewhere). */
async function getPage(pathname: string, address: string, cookie?: string): Promise<void> {
  const response = await fetch(`${ORIGIN}${pathname}`, {
    headers: { "x-forwarded-for": address, ...(cookie ? { cookie } : {}) },
    redirect: "manual",
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${pathname}: ${response.status} ${response.headers.get("location") ?? text.slice(0, 120)}`);
}

async function searchPlaces(query: string, address: string): Promise<void> {
  const body = await callJson(`/api/locations/search/public?${new URLSearchParams({ query, limit: "5" })}`, address);
  const data = body.data as { predictions?: unknown[] } | undefined;
  if (!Array.isArray(data?.predictions)) throw new Error("search answered without predictions");
}

async function signIn(account: Pick<Account, "email">, address: string): Promise<string> {
  const body = await callJson("/api/auth/token", address, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ grant_type: "password", email: account.email, password: PASSWORD }),
  });
  if (typeof body.access_token !== "string") throw new Error("token response without access_token");
  return body.access_token;
}

async function me(account: Account, token: string, address: string): Promise<void> {
  const body = await callJson("/api/v2/auth/me", address, { headers: { authorization: `Bearer ${token}` } });
  if (body.userId !== account.id) throw new Error("/me answered for another user");
}

async function markAllRead(token: string, address: string): Promise<void> {
  await callJson("/api/notifications/read", address, {
    method: "PATCH",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ mark_all: true }),
  });
}

type Row = { name: string; total: number; concurrency: number; outcome: Outcome; expectFailures?: boolean };

/** Prints the failures by reason; returns how many count as errors. */
function reportFailures(name: string, outcome: Outcome, expectFailures = false): number {
  for (const [reason, n] of outcome.failures) console.log(`  ${name}: ${n} x ${reason}`);
  if (outcome.skipped) console.log(`  ${name}: ${outcome.skipped} not sent within the ${PHASE_BUDGET_MS / 1000} s budget`);
  // The flood's refusals are its expected answers, not failures of the app.
  return expectFailures ? 0 : [...outcome.failures.values()].reduce((a, b) => a + b, 0) + outcome.skipped;
}

function printTable(header: string[], table: string[][]): void {
  const widths = header.map((h, c) => Math.max(h.length, ...table.map((r) => r[c]!.length)));
  const line = (cells: string[]) => cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  ");
  console.log(`\n${line(header)}\n${widths.map((w) => "-".repeat(w)).join("  ")}`);
  for (const r of table) console.log(line(r));
}

function report(rows: Row[]): number {
  const header = ["phase", "requests", "conc", "ok", "errors", "req/s", "median", "p95", "p99", "max (ms)"];
  const table = rows.map(({ name, total, concurrency, outcome: o }) => {
    const sorted = [...o.latencies].sort((a, b) => a - b);
    const errors = total - o.latencies.length;
    return [name, total, concurrency, o.latencies.length, errors, (o.latencies.length / o.seconds).toFixed(1)]
      .concat([50, 95, 99, 100].map((p) => percentile(sorted, p).toFixed(1)))
      .map(String);
  });
  printTable(header, table);
  return rows.reduce((errors, { name, outcome, expectFailures }) => errors + reportFailures(name, outcome, expectFailures), 0);
}

type Target = { name: string; send: (worker: number) => Promise<void> };

const throughput = (o: Outcome) => o.latencies.length / o.seconds;
const p99Of = (o: Outcome) =>
  percentile(
    [...o.latencies].sort((a, b) => a - b),
    99,
  );
const p50Of = (o: Outcome) =>
  percentile(
    [...o.latencies].sort((a, b) => a - b),
    50,
  );
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
/** How far the runs of one kind spread: (max - min) / mean of their req/s, the machine's noise. */
const spread = (values: number[]) =>
  values.length > 1 ? `${((100 * (Math.max(...values) - Math.min(...values))) / mean(values)).toFixed(0)}%` : "-";

/**
 * ROUNDS rounds; in each, every target runs PAIR_S seconds right after its own run of the
 * baseline, in an order that rotates every round. Each ratio pairs a run with the baseline run
 * just before it, so a burst of load from elsewhere on the machine lands on both sides.
 */
async function alternate(baseline: Target, targets: Target[]): Promise<{ rows: string[][]; errors: number }> {
  const results = targets.map((target) => ({ target, pairs: [] as { base: Outcome; run: Outcome }[] }));
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < results.length; k++) {
      const entry = results[(k + round) % results.length]!;
      const base = await runFor(PAIR_S, CLIENTS, baseline.send);
      const run = await runFor(PAIR_S, CLIENTS, entry.target.send);
      entry.pairs.push({ base, run });
    }
  }
  let errors = 0;
  const rows = results.map(({ target, pairs }) => {
    for (const { base, run } of pairs) errors += reportFailures(baseline.name, base) + reportFailures(target.name, run);
    const runs = pairs.map((p) => p.run);
    const bases = pairs.map((p) => p.base);
    const all = (o: Outcome[]) => o.flatMap((x) => x.latencies).sort((a, b) => a - b);
    return [
      target.name,
      mean(runs.map(throughput)).toFixed(0),
      percentile(all(runs), 50).toFixed(1),
      percentile(all(runs), 99).toFixed(1),
      mean(bases.map(throughput)).toFixed(0),
      percentile(all(bases), 50).toFixed(1),
      percentile(all(bases), 99).toFixed(1),
      `${mean(pairs.map((p) => throughput(p.run) / throughput(p.base))).toFixed(2)}x`,
      `${mean(pairs.map((p) => p50Of(p.run) / p50Of(p.base))).toFixed(2)}x`,
      `${mean(pairs.map((p) => p99Of(p.run) / p99Of(p.base))).toFixed(1)}x`,
      `${spread(runs.map(throughput))} / ${spread(bases.map(throughput))}`,
    ];
  });
  return { rows, errors };
}

/** The columns of alternate()'s rows: "ratio" is of req/s (run / base), the latency ratios are base-relative the other way (run / base ms). */
const ALTERNATE_HEADER = [
  "call",
  "req/s",
  "p50",
  "p99",
  "base req/s",
  "base p50",
  "base p99",
  "ratio",
  "p50 ratio",
  "p99 ratio",
  "spread run/base",
];
const printAlternate = (rows: string[][]) => printTable(ALTERNATE_HEADER, rows);

// ---------------------------------------------------------------- main

/** One database: its own users and server; the ratios, then the timed runs, the flood and the loops. */
async function benchOn(database: BenchDatabase): Promise<number> {
  const secret = newSecret();
  const env = appEnv(database, secret);
  // This process opens the same database to create the users: Postgres by its URL, PGlite through
  // env().PGLITE_DIR, which is read once, on first use (hence PGlite first, see main).
  for (const key of ["DATABASE_URL", "PGLITE_DIR"]) delete process.env[key];
  Object.assign(process.env, database.env);
  const accounts = await createUsers(database, secret);
  console.log(`\n== ${database.label}: ${accounts.length} verified users (${accounts.length / 2} couples).`);

  const { child } = await startServer(env);
  const pid = child.pid!;
  const memory = [`after start: ${rss(pid)}`];

  // Warm-up: one sign-in per user (which also gives the tokens), then /me calls.
  const tokens: string[] = [];
  const warmSignIns = await runLoad(accounts.length, 5, async (i, w) => {
    tokens[i] = await signIn(accounts[i]!, addressOf(100 + w));
  });
  if (warmSignIns.failures.size) throw new Error(`warm-up sign-in failed: ${[...warmSignIns.failures.keys()].join("; ")}`);
  const warmMe = await runLoad(200, 20, (i) => me(accounts[i % accounts.length]!, tokens[i % accounts.length]!, addressOf(200 + (i % 20))));
  if (warmMe.failures.size) throw new Error(`warm-up /me failed: ${[...warmMe.failures.keys()].join("; ")}`);

  // The ratios. Client w is user w (mod the user count), with its own address, token and cookie.
  const account = (w: number) => accounts[w % accounts.length]!;
  let searches = 0;
  const baseline: Target = {
    name: "GET /api/bench/bare (baseline)",
    send: (w) => callJson("/api/bench/bare", addressOf(w)).then(() => undefined),
  };
  const targets: Target[] = [
    { name: "GET /api/v2/auth/me (bearer)", send: (w) => me(account(w), tokens[w % accounts.length]!, addressOf(w)) },
    { name: "GET /login", send: (w) => getPage("/login", addressOf(w)) },
    { name: "GET /profile (cookie)", send: (w) => getPage("/profile", addressOf(w), account(w).cookie) },
    {
      name: "GET /api/locations/search/public",
      send: (w) => searchPlaces(SEARCH_QUERIES[searches++ % SEARCH_QUERIES.length]!, addressOf(2000 + w)),
    },
  ];
  // Warm: each once per client slot (the first search also builds the gazetteer index).
  for (const target of [baseline, ...targets]) {
    const warm = await runLoad(40, 10, (_, w) => target.send(w));
    if (warm.failures.size) throw new Error(`warm-up of ${target.name} failed: ${[...warm.failures.keys()].join("; ")}`);
  }
  memory.push(`after warm-up: ${rss(pid)}`);
  console.log(`Ratios: ${ROUNDS} rounds of ${PAIR_S} s per call and baseline at ${CLIENTS} clients (BENCH_ROUNDS, BENCH_PAIR_S)...`);
  const alternating = await alternate(baseline, targets);
  printAlternate(alternating.rows);
  memory.push(`after the ratios: ${rss(pid)}`);

  const rows: Row[] = [];
  console.log(`\nTimed runs: ${DURATION_S} s at ${CLIENTS} clients each (BENCH_DURATION_S, BENCH_CLIENTS)...`);
  const meTimed = await runFor(DURATION_S, CLIENTS, (w) => me(accounts[w % accounts.length]!, tokens[w % accounts.length]!, addressOf(w)));
  rows.push({ name: `GET /api/v2/auth/me, ${DURATION_S} s`, total: meTimed.total, concurrency: CLIENTS, outcome: meTimed });
  const writeTimed = await runFor(DURATION_S, CLIENTS, (w) => markAllRead(tokens[w % accounts.length]!, addressOf(w)));
  rows.push({ name: `PATCH /api/notifications/read, ${DURATION_S} s`, total: writeTimed.total, concurrency: CLIENTS, outcome: writeTimed });
  memory.push(`after the timed runs: ${rss(pid)}`);

  // A flood of sign-ins for unknown e-mails from many addresses (argon2 for each), with /me measured meanwhile.
  const floodClients = Math.max(1, Math.round(CLIENTS / 2));
  const meClients = Math.max(1, CLIENTS - floodClients);
  console.log(
    `Sign-in flood: ${FLOOD_S} s, ${floodClients} clients signing in as unknown e-mails, ${meClients} on /api/v2/auth/me (BENCH_FLOOD_S)...`,
  );
  let attempt = 0;
  const [flood, meDuringFlood] = await Promise.all([
    runFor(FLOOD_S, floodClients, async (w) => {
      const n = ++attempt;
      await signIn({ email: `nobody${n}@flood.couples.test` }, `198.19.${(n >> 8) & 255}.${n & 255}`).catch((error: unknown) => {
        throw new Error(message(error).slice(0, 3) || `worker ${w}`); // counted by status
      });
    }),
    runFor(FLOOD_S, meClients, (w) => me(accounts[w % accounts.length]!, tokens[w % accounts.length]!, addressOf(500 + w))),
  ]);
  rows.push({
    name: `sign-in flood (unknown e-mails), ${FLOOD_S} s`,
    total: flood.total,
    concurrency: floodClients,
    outcome: flood,
    expectFailures: true,
  });
  rows.push({ name: `GET /api/v2/auth/me during the flood`, total: meDuringFlood.total, concurrency: meClients, outcome: meDuringFlood });
  memory.push(`after the flood: ${rss(pid)}`);

  const meTotal = 2000;
  const meConcurrency = 20;
  console.log(`\nGET /api/v2/auth/me: ${meTotal} requests at concurrency ${meConcurrency}...`);
  // Virtual user w is user w (mod the user count), with its own address and token.
  const meOutcome = await runLoad(meTotal, meConcurrency, (_, w) =>
    me(accounts[w % accounts.length]!, tokens[w % accounts.length]!, addressOf(w)),
  );
  rows.push({ name: "GET /api/v2/auth/me (bearer)", total: meTotal, concurrency: meConcurrency, outcome: meOutcome });
  memory.push(`after /me: ${rss(pid)}`);

  const signInTotal = 200;
  const signInConcurrency = 10;
  console.log(`POST /api/auth/token (password grant): ${signInTotal} requests at concurrency ${signInConcurrency}...`);
  // Each user signs in total/users times; successful sign-ins never count toward a lockout.
  const signInOutcome = await runLoad(signInTotal, signInConcurrency, async (i, w) => {
    await signIn(accounts[i % accounts.length]!, addressOf(1000 + w));
  });
  rows.push({ name: "POST /api/auth/token (password)", total: signInTotal, concurrency: signInConcurrency, outcome: signInOutcome });
  memory.push(`after sign-ins: ${rss(pid)}`);

  // The first search builds the gazetteer index (a one-off per server instance): outside the figures.
  await searchPlaces("lisb", addressOf(3000));
  memory.push(`after the first search: ${rss(pid)}`);
  const searchTotal = 2000;
  const searchConcurrency = 10;
  console.log(`GET /api/locations/search/public: ${searchTotal} requests at concurrency ${searchConcurrency}...`);
  const searchOutcome = await runLoad(searchTotal, searchConcurrency, (i, w) =>
    searchPlaces(SEARCH_QUERIES[i % SEARCH_QUERIES.length]!, addressOf(2000 + w)),
  );
  rows.push({ name: "GET /api/locations/search/public", total: searchTotal, concurrency: searchConcurrency, outcome: searchOutcome });
  memory.push(`after searches: ${rss(pid)}`);

  const errors = alternating.errors + report(rows);
  console.log(`\nServer RSS: ${memory.join("; ")}`);
  await stopGroup(child);
  return errors;
}

let built = false;
/** The production build every section measures, made once per run (or BENCH_SKIP_BUILD's). */
async function ensureBuild(): Promise<void> {
  if (built) return;
  if (process.env.BENCH_SKIP_BUILD === "1") {
    if (!existsSync(path.join(DIST_DIR, "BUILD_ID"))) throw new Error(`BENCH_SKIP_BUILD=1 but there is no build in ${DIST_DIR}/`);
  } else {
    // The build reads no database; the secret only has to be valid.
    await build(appEnv(null, newSecret()));
  }
  built = true;
}

/** The HTTP bench: each database in turn against the bare route in the same server, then the in-process figures. */
async function benchHttp(): Promise<number> {
  await ensureBuild();
  let errors = 0;
  for (const kind of [...DATABASES].sort((a, b) => Number(b === "pglite") - Number(a === "pglite"))) {
    const database = kind === "pglite" ? pgliteDatabase() : await postgresDatabase();
    if (!database) {
      console.log(`\n== Postgres did not answer at ${ADMIN_URL}: skipped.`);
      continue;
    }
    cleanups.push(database.drop);
    errors += await benchOn(database);
  }
  console.log(`\n${os.cpus().length} CPUs; Node ${process.version}; ratios are against /api/bench/bare in the same server.`);
  // With the servers stopped, so the two do not compete for the CPUs.
  await runInProcessBenchmarks();
  return errors;
}

async function main(): Promise<number> {
  // BENCH_SECTIONS (e.g. "forum", "http,directory,discover"): which parts run; unset, the HTTP bench only.
  // forum: the forum's lists at 10k and 1M posts; directory and discover: their pages at 1,000
  // and 100,000 couples, each on scale databases of their own; lighthouse: the phone scores of
  // five pages against a bare page (scripts/bench/lighthouse.ts).
  const sections = (process.env.BENCH_SECTIONS ?? "http").split(",").map((name) => name.trim());
  let errors = 0;
  if (sections.includes("http")) errors += await benchHttp();
  if (sections.includes("forum")) errors += await benchForum();
  if (sections.includes("directory")) await benchDirectory(ADMIN_URL);
  if (sections.includes("discover")) {
    errors += await runDiscoverBench({
      ensureBuild,
      appEnv: (databaseUrl, secret) => appEnv({ env: { DATABASE_URL: databaseUrl }, label: databaseUrl, drop: async () => {} }, secret),
      newSecret,
      startServer,
      stopGroup,
      sessionCookie,
      alternate,
      printAlternate,
      getPage,
      callJson,
      addressOf,
      settings: `${ROUNDS} rounds of ${PAIR_S} s per call and baseline at ${CLIENTS} clients (BENCH_ROUNDS, BENCH_PAIR_S, BENCH_CLIENTS)`,
    });
  }
  if (sections.includes("lighthouse")) {
    errors += await benchLighthouse({
      origin: `http://localhost:${PORT}`,
      ensureBuild,
      database: async () => (await postgresDatabase()) ?? pgliteDatabase(),
      appEnv,
      newSecret,
      startServer,
      stopGroup,
      cleanups,
    });
  }
  if (errors) console.error(`\n${errors} request(s) failed.`);
  return errors ? 1 : 0;
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  console.error(`bench failed: ${message(error)}`);
} finally {
  await cleanup();
}
// Explicit: keep-alive sockets or a lingering driver must not hold the process open.
process.exit(exitCode);
