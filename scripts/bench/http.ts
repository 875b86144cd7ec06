/**
 * The `http` section (the default): for each database (BENCH_DATABASES, PGlite first), its own
 * users and server from the production build, then
 *   1. the ratios: /api/v2/auth/me, /login, /profile and the place search each against the bare
 *      route /api/bench/bare in the same server (alternate(), load.ts);
 *   2. timed runs at BENCH_CLIENTS clients for BENCH_DURATION_S seconds each (GET /api/v2/auth/me;
 *      a write, PATCH /api/notifications/read);
 *   3. a sign-in flood of unknown e-mails for BENCH_FLOOD_S seconds with /me measured during it;
 *   4. bounded request loops (current user, sign-in, place search), and the server's memory;
 * and at the end, with the servers stopped, the in-process figures (in-process.ts).
 */
import os from "node:os";
import { CLIENTS, DATABASES, DURATION_S, FLOOD_S, PAIR_S, ROUNDS, ADMIN_URL } from "./config";
import { onCleanup } from "./cleanup";
import { createUsers } from "./accounts";
import { addressOf, callJson, getPage, markAllRead, me, searchPlaces, signIn } from "./client";
import { pgliteDatabase, postgresDatabase, type BenchDatabase } from "./databases";
import { SEARCH_QUERIES, runInProcessBenchmarks } from "./in-process";
import { alternate, message, runFor, runLoad, type Target } from "./load";
import { rss } from "./memory";
import { printAlternate, report, type Row } from "./report";
import { appEnv, ensureBuild, newSecret, startServer, stopGroup } from "./server";

/** One database: its own users and server; the ratios, then the timed runs, the flood and the loops. */
async function benchOn(database: BenchDatabase): Promise<number> {
  const secret = newSecret();
  const env = appEnv(database.env, secret);
  // This process opens the same database to create the users: Postgres by its URL, PGlite through
  // env().PGLITE_DIR, which is read once, on first use (hence PGlite first, see benchHttp).
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
  // Each search from an address of its own: one address may search 60 times a minute
  // (LIMITS.placeSearchPerAddress), and the load is many people typing, not one looping.
  const searchAddress = () => addressOf(10_000 + (searches++ % 50_000));
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
      send: () => searchPlaces(SEARCH_QUERIES[searches % SEARCH_QUERIES.length]!, searchAddress()),
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
  const searchOutcome = await runLoad(searchTotal, searchConcurrency, (i) =>
    searchPlaces(SEARCH_QUERIES[i % SEARCH_QUERIES.length]!, searchAddress()),
  );
  rows.push({ name: "GET /api/locations/search/public", total: searchTotal, concurrency: searchConcurrency, outcome: searchOutcome });
  memory.push(`after searches: ${rss(pid)}`);

  const errors = alternating.errors + report(rows);
  console.log(`\nServer RSS: ${memory.join("; ")}`);
  await stopGroup(child);
  return errors;
}

/** The HTTP bench: each database in turn against the bare route in the same server, then the in-process figures. */
export async function benchHttp(): Promise<number> {
  await ensureBuild();
  let errors = 0;
  for (const kind of [...DATABASES].sort((a, b) => Number(b === "pglite") - Number(a === "pglite"))) {
    const database = kind === "pglite" ? pgliteDatabase() : await postgresDatabase();
    if (!database) {
      console.log(`\n== Postgres did not answer at ${ADMIN_URL}: skipped.`);
      continue;
    }
    onCleanup(database.drop);
    errors += await benchOn(database);
  }
  console.log(`\n${os.cpus().length} CPUs; Node ${process.version}; ratios are against /api/bench/bare in the same server.`);
  // With the servers stopped, so the two do not compete for the CPUs.
  await runInProcessBenchmarks();
  return errors;
}
