/**
 * `BENCH_SECTIONS=login`: the prerendered pages a visitor opens first, /login and /register, against
 * a bare Next app's prerendered page that writes the same strict CSP and security headers from its
 * config (bare-next.ts headedBareApp), all running side by side at BENCH_CLIENTS clients in the
 * bench's alternating runs; target at least 0.8x its requests per second. Beside them, what else
 * stands around such a page, measured apart:
 *   - the headers: the plain bare page, writing none;
 *   - a route guard at all (what a visitor with a session, whom middleware.ts does guard, costs):
 *     the bare page behind a guard of its own that only writes the same headers;
 *   - the app's server around Next's handler alone: the app's bare route (/api/bench/bare, no guard)
 *     against the bare app's route.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { addressOf, callJson, getPage } from "./client";
import { onCleanup } from "./cleanup";
import { ORIGIN, PAIRED_SETTINGS, PORT, REQUEST_TIMEOUT_MS } from "./config";
import { BARE_APP, BARE_ROUTE, bareEnv, bareNextArgs, ensureBareNext, guardedBareApp, headedBareApp, type BareApp } from "./bare-next";
import { pgliteDatabase, postgresDatabase } from "./databases";
import { alternate, type Target } from "./load";
import { printAlternate, printVerdicts } from "./report";
import { appEnv, ensureBuild, newSecret, spawnGroup, startServer, stopGroup } from "./server";

const TARGET_RATIO = 0.8;
/** The headers of the app's /login that the guarded bare page writes too. */
const SECURITY_HEADERS = [
  "content-security-policy",
  "x-content-type-options",
  "referrer-policy",
  "x-frame-options",
  "permissions-policy",
  "cross-origin-opener-policy",
  "strict-transport-security",
];

/** `next start` of a bare app on `port` (refused when something answers there already), once its page answers. */
async function startBare(app: BareApp, port: number, env: NodeJS.ProcessEnv) {
  const origin = `http://127.0.0.1:${port}`;
  const answers = () =>
    getPage("/", addressOf(0), undefined, origin).then(
      () => true,
      () => false,
    );
  if (await answers()) throw new Error(`something already answers on port ${port}; stop it first`);
  const child = spawnGroup(bareNextArgs(port, app), bareEnv(env), "inherit");
  for (const deadline = Date.now() + 60_000; !(await answers()); await sleep(100)) {
    if (child.exitCode !== null) throw new Error(`the bare app in ${app.dir} exited (${child.exitCode})`);
    if (Date.now() > deadline) throw new Error(`the bare app in ${app.dir} did not answer within 60 s`);
  }
  return { child, origin };
}

/** The security headers the app's /login answers with. */
async function loginHeaders(): Promise<Record<string, string>> {
  const response = await fetch(`${ORIGIN}/login`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  await response.arrayBuffer();
  const headers = Object.fromEntries(
    SECURITY_HEADERS.flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name)!]] : [])),
  );
  if (!headers["content-security-policy"]) throw new Error("/login answered without a Content-Security-Policy");
  return headers;
}

export async function benchLogin(): Promise<number> {
  await ensureBuild();
  const database = (await postgresDatabase()) ?? pgliteDatabase();
  onCleanup(database.drop);
  const env = appEnv(database.env, newSecret());
  console.log(`\n== /login and /register against a bare Next app's prerendered page, on ${database.label}`);
  const { child: server } = await startServer(env);
  const stops = [() => stopGroup(server)];
  try {
    const headers = await loginHeaders();
    const headed = headedBareApp(headers);
    const guarded = guardedBareApp(headers);
    for (const app of [BARE_APP, headed, guarded]) await ensureBareNext(env, app);
    const bare = await startBare(BARE_APP, PORT + 1, env);
    stops.push(() => stopGroup(bare.child));
    const bareHeaded = await startBare(headed, PORT + 2, env);
    stops.push(() => stopGroup(bareHeaded.child));
    const bareGuarded = await startBare(guarded, PORT + 3, env);
    stops.push(() => stopGroup(bareGuarded.child));

    const page = (name: string, path: string, origin = ORIGIN): Target => ({
      name,
      send: (w) => getPage(path, addressOf(w), undefined, origin),
    });
    const headedPage = page("bare app writing /login's headers from its config: GET / (base)", "/", bareHeaded.origin);
    const ownPages = [page("GET /login", "/login"), page("GET /register", "/register")];
    const around = [
      page("bare app writing no headers: GET /", "/", bare.origin),
      page("bare app behind a guard writing /login's headers: GET /", "/", bareGuarded.origin),
    ];
    for (const target of [headedPage, ...ownPages, ...around]) for (let i = 0; i < 50; i++) await target.send(i);

    let errors = 0;
    console.log(`\nAgainst the bare page with the same headers (base): ${PAIRED_SETTINGS}...`);
    const onBare = await alternate(headedPage, [...ownPages, ...around]);
    printAlternate(onBare.rows);
    printVerdicts(onBare.rows.slice(0, ownPages.length), "throughput", TARGET_RATIO);
    errors += onBare.errors;

    const route = (name: string, path: string, origin: string): Target => ({
      name,
      send: (w) => callJson(path, addressOf(w), {}, origin).then(() => undefined),
    });
    console.log(`\nThe app's server around Next's handler: its bare route against the bare app's (base): ${PAIRED_SETTINGS}...`);
    const onRoute = await alternate(route(`bare app: GET ${BARE_ROUTE}`, BARE_ROUTE, bare.origin), [
      route("the app: GET /api/bench/bare", "/api/bench/bare", ORIGIN),
    ]);
    printAlternate(onRoute.rows);
    errors += onRoute.errors;
    return errors;
  } finally {
    for (const stop of stops) await stop();
  }
}
