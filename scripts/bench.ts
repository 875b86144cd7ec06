/**
 * `npm run bench`: a production build on its own database, measured over loopback.
 *
 *   1. a database of its own: a fresh `bench_<timestamp>` on the local Postgres when it answers
 *      (TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test), else PGlite in a temp folder;
 *   2. `next build` into .next-bench (skipped with BENCH_SKIP_BUILD=1), so it never touches .next;
 *   3. verified users inserted directly, paired into couples so /api/v2/auth/me answers 200;
 *   4. the app's server (server.ts, as `npm start`) on 127.0.0.1:3199 with TRUSTED_PROXY_HOPS=1
 *      (the bench plays the proxy: each virtual user's X-Forwarded-For is its address), then
 *      timed runs at BENCH_CLIENTS clients for BENCH_DURATION_S seconds each (GET
 *      /api/v2/auth/me; a write, PATCH /api/notifications/read), a sign-in flood of unknown
 *      e-mails for BENCH_FLOOD_S seconds with /api/v2/auth/me measured during it, and bounded
 *      request loops (current user, sign-in, place search);
 *   5. the server is stopped, then the in-process figures (gazetteer search time, images per
 *      second: scripts/bench-in-process.ts); the database is dropped, also on failure and on Ctrl-C.
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
import { openDatabase } from "@/db/client";
import { couples, users } from "@/db/schema";
import { hashPassword } from "@/lib/auth/password";
import { SEARCH_QUERIES, runInProcessBenchmarks } from "./bench-in-process";
import { percentile } from "./stats";

const PORT = 3199;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const DIST_DIR = ".next-bench";
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
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const USER_COUNT = 20;
const PASSWORD = "Bench-Pass-2026!";
const REQUEST_TIMEOUT_MS = 15_000;
/** No phase runs longer than this; requests not sent by then count as errors. */
const PHASE_BUDGET_MS = 180_000;
const READY_TIMEOUT_MS = 90_000;

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

async function prepareDatabase(): Promise<BenchDatabase> {
  const admin = postgres(ADMIN_URL, { max: 1, connect_timeout: 3, ...quiet });
  try {
    await admin`select 1`;
  } catch {
    await admin.end({ timeout: 1 });
    const dir = mkdtempSync(path.join(os.tmpdir(), "couples-bench-"));
    return {
      env: { PGLITE_DIR: path.join(dir, "pglite") },
      label: `PGlite in ${dir} (Postgres did not answer at ${ADMIN_URL})`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
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

type Account = { id: string; email: string };

async function createUsers(): Promise<Account[]> {
  const handle = await openDatabase();
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
    return accounts;
  } finally {
    await handle.close();
  }
}

// ---------------------------------------------------------------- processes

/** Everything the build and the server see: production, our database, a throwaway secret. */
function appEnv(database: BenchDatabase): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_DIST_DIR: DIST_DIR,
    NEXT_TELEMETRY_DISABLED: "1",
    AUTH_SECRET: randomBytes(36).toString("base64url"), // 48 characters
    APP_URL: `http://localhost:${PORT}`,
  };
  // Never the developer's database or mail provider.
  for (const key of ["DATABASE_URL", "PGLITE_DIR", "RESEND_API_KEY", "ENABLE_DEV_OUTBOX"]) delete env[key];
  return { ...env, ...database.env };
}

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
  const touched = ["tsconfig.json", "next-env.d.ts"].map((file) => ({ file, before: existsSync(file) ? readFileSync(file, "utf8") : null }));
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
  const child = spawnGroup([TSX_CLI, "server.ts"], { ...env, HOST: "127.0.0.1", PORT: String(PORT), TRUSTED_PROXY_HOPS: "1" }, "pipe");
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

async function searchPlaces(query: string, address: string): Promise<void> {
  const body = await callJson(`/api/locations/search/public?${new URLSearchParams({ query, limit: "5" })}`, address);
  const data = body.data as { predictions?: unknown[] } | undefined;
  if (!Array.isArray(data?.predictions)) throw new Error("search answered without predictions");
}

async function signIn(account: Account, address: string): Promise<string> {
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

function report(rows: Row[]): number {
  const header = ["phase", "requests", "conc", "ok", "errors", "err %", "req/s", "p50", "p95", "p99", "max (ms)"];
  const table = rows.map(({ name, total, concurrency, outcome: o }) => {
    const sorted = [...o.latencies].sort((a, b) => a - b);
    const errors = total - o.latencies.length;
    const errorRate = total ? ((100 * errors) / total).toFixed(2) : "0.00";
    return [name, total, concurrency, o.latencies.length, errors, errorRate, (o.latencies.length / o.seconds).toFixed(1)]
      .concat([50, 95, 99, 100].map((p) => percentile(sorted, p).toFixed(1)))
      .map(String);
  });
  const widths = header.map((h, c) => Math.max(h.length, ...table.map((r) => r[c]!.length)));
  const line = (cells: string[]) => cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  ");
  console.log(`\n${line(header)}\n${widths.map((w) => "-".repeat(w)).join("  ")}`);
  for (const r of table) console.log(line(r));
  let errors = 0;
  for (const { name, outcome, expectFailures } of rows) {
    for (const [reason, n] of outcome.failures) console.log(`  ${name}: ${n} x ${reason}`);
    if (outcome.skipped) console.log(`  ${name}: ${outcome.skipped} not sent within the ${PHASE_BUDGET_MS / 1000} s budget`);
    // The flood's refusals are its expected answers, not failures of the app.
    if (!expectFailures) errors += [...outcome.failures.values()].reduce((a, b) => a + b, 0) + outcome.skipped;
  }
  return errors;
}

// ---------------------------------------------------------------- main

async function main(): Promise<number> {
  const database = await prepareDatabase();
  cleanups.push(database.drop);
  console.log(`Database: ${database.label}`);
  // This process opens the same database to create the users (env() is read lazily, on first use).
  for (const key of ["DATABASE_URL", "PGLITE_DIR"]) delete process.env[key];
  Object.assign(process.env, database.env);
  const env = appEnv(database);

  if (process.env.BENCH_SKIP_BUILD === "1") {
    if (!existsSync(path.join(DIST_DIR, "BUILD_ID"))) throw new Error(`BENCH_SKIP_BUILD=1 but there is no build in ${DIST_DIR}/`);
  } else {
    await build(env);
  }

  const accounts = await createUsers();
  console.log(`Created ${accounts.length} verified users (${accounts.length / 2} couples).`);

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
  memory.push(`after warm-up: ${rss(pid)}`);

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
  console.log(`Sign-in flood: ${FLOOD_S} s, ${floodClients} clients signing in as unknown e-mails, ${meClients} on /api/v2/auth/me (BENCH_FLOOD_S)...`);
  let attempt = 0;
  const [flood, meDuringFlood] = await Promise.all([
    runFor(FLOOD_S, floodClients, async (w) => {
      const n = ++attempt;
      await signIn({ id: "", email: `nobody${n}@flood.couples.test` }, `198.19.${(n >> 8) & 255}.${n & 255}`).catch((error: unknown) => {
        throw new Error(message(error).slice(0, 3) || `worker ${w}`); // counted by status
      });
    }),
    runFor(FLOOD_S, meClients, (w) => me(accounts[w % accounts.length]!, tokens[w % accounts.length]!, addressOf(500 + w))),
  ]);
  rows.push({ name: `sign-in flood (unknown e-mails), ${FLOOD_S} s`, total: flood.total, concurrency: floodClients, outcome: flood, expectFailures: true });
  rows.push({ name: `GET /api/v2/auth/me during the flood`, total: meDuringFlood.total, concurrency: meClients, outcome: meDuringFlood });
  memory.push(`after the flood: ${rss(pid)}`);

  const meTotal = 2000;
  const meConcurrency = 20;
  console.log(`\nGET /api/v2/auth/me: ${meTotal} requests at concurrency ${meConcurrency}...`);
  // Virtual user w is user w (mod the user count), with its own address and token.
  const meOutcome = await runLoad(meTotal, meConcurrency, (_, w) => me(accounts[w % accounts.length]!, tokens[w % accounts.length]!, addressOf(w)));
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
  const searchOutcome = await runLoad(searchTotal, searchConcurrency, (i, w) => searchPlaces(SEARCH_QUERIES[i % SEARCH_QUERIES.length]!, addressOf(2000 + w)));
  rows.push({ name: "GET /api/locations/search/public", total: searchTotal, concurrency: searchConcurrency, outcome: searchOutcome });
  memory.push(`after searches: ${rss(pid)}`);

  const errors = report(rows);
  console.log(`\nServer RSS: ${memory.join("; ")}`);
  console.log(`Database: ${database.label}; ${os.cpus().length} CPUs; Node ${process.version}.`);
  // With the server stopped, so the two do not compete for the CPUs.
  await stopGroup(child);
  await runInProcessBenchmarks();
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
