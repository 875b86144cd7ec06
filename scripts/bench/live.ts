/**
 * The `live` section: the live stream (GET /api/stream) from the production build, on each
 * database (BENCH_DATABASES, PGlite first as in the http section):
 *   1. delivery latency: with 50, 200 and 1,000 streams open (BENCH_LIVE_STREAMS), spread over the
 *      bench's users, a forum reply is posted to a user's post; the time from the POST's response
 *      to the reply's `notification` event on each of that user's open streams, p50/p99
 *      (BENCH_LIVE_ROUNDS replies per stream count; targets: p99 under 250 ms at 1,000), and from the
 *      POST's sending (an event may arrive before its response has been read: 0 from the response);
 *   2. the server's memory per open stream with the most open, less before any (target: under
 *      50 kB): the heap in use after a full collection (the server runs with --expose-gc) and the
 *      resident set; beside it the same for as many idle streams of a bench-only route that sends
 *      nothing (/api/bench/idle-stream): what Next and Node hold for any open streamed response;
 *      and the server's CPU time per second over QUIET_S seconds with no request, without streams
 *      and with the most open (what idle streams cost between requests: their heartbeats);
 *   3. GET /api/v2/auth/me's p99 without streams, with the most open and with as many idle ones, alternating
 *      (BENCH_LIVE_ME_ROUNDS rounds of BENCH_PAIR_S seconds at BENCH_CLIENTS clients each; a full
 *      collection before each run): the median of each side's per-round p99s and their ratio
 *      (target: at most 1.2x), so a burst of load from elsewhere on the machine moves one round, not the figure.
 * The server's streams live an hour (LIVE_STREAM_MAX_S): none ends by itself during the section.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { ADMIN_URL, CLIENTS, DATABASES, ORIGIN, PAIR_S } from "./config";
import { onCleanup } from "./cleanup";
import { createUsers, type Account } from "./accounts";
import { addressOf, callJson, me, signIn } from "./client";
import { pgliteDatabase, postgresDatabase, type BenchDatabase } from "./databases";
import { runFor, runLoad } from "./load";
import { cpuMs } from "./memory";
import { printTable } from "./report";
import { appEnv, ensureBuild, newSecret, startServer, stopGroup } from "./server";
import { median, percentile } from "./stats";
import { HEARTBEAT_MS, STREAMS_PER_PERSON } from "@/lib/live/rules";

const STREAM_COUNTS = (process.env.BENCH_LIVE_STREAMS ?? "50,200,1000").split(",").map(Number);
const ROUNDS_PER_COUNT = Number(process.env.BENCH_LIVE_ROUNDS ?? 10);
const ME_ROUNDS = Number(process.env.BENCH_LIVE_ME_ROUNDS ?? 5);
/** How long a reply's event may take before it counts as lost. */
const DELIVERY_TIMEOUT_MS = 10_000;
/** Streams opened at once while growing to a count. */
const OPEN_BATCH = 50;

/** One open stream: calls `onNotification` when a `notification` event arrives. */
type Stream = { userIndex: number; close: () => void; onNotification?: () => void };

/**
 * What a stream has sent once it is open: GET /api/stream's opening event (the counts, after its
 * reads), the idle route's comment. Until then it is still opening, and the server still working on it.
 */
const OPENED: Record<string, string> = { "/api/stream": "event: unread\n", "/api/bench/idle-stream": ": idle\n" };

/** Opens a stream and resolves once it sent its opening (else fails after DELIVERY_TIMEOUT_MS). */
async function openStream(pathname: string, account: Account, userIndex: number, worker: number): Promise<Stream> {
  const abort = new AbortController();
  const response = await fetch(`${ORIGIN}${pathname}`, {
    headers: { cookie: account.cookie, "x-forwarded-for": addressOf(3000 + worker) },
    signal: abort.signal,
  });
  if (!response.ok || !response.body) throw new Error(`${pathname}: ${response.status}`);
  const stream: Stream = { userIndex, close: () => abort.abort() };
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  // Settles once: opened, or failed (ended, aborted or timed out first).
  let settle!: (error?: Error) => void;
  const opened = new Promise<void>((resolve, reject) => (settle = (error) => (error ? reject(error) : resolve())));
  void (async () => {
    // The end of the previous chunk: an event's name may be cut between two chunks.
    let tail = "";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return settle(new Error(`${pathname}: ended before its opening`));
        if ((tail + value).includes(OPENED[pathname]!)) settle();
        if ((tail + value).includes("event: notification\n")) stream.onNotification?.();
        tail = value.slice(-24);
      }
    } catch {
      settle(new Error(`${pathname}: closed before its opening`)); // or closed by the bench, once open
    }
  })();
  const timer = setTimeout(() => {
    settle(new Error(`${pathname}: no opening within ${DELIVERY_TIMEOUT_MS} ms`));
    abort.abort();
  }, DELIVERY_TIMEOUT_MS);
  await opened.finally(() => clearTimeout(timer));
  return stream;
}

/** Why a call failed, with the network error under fetch's "fetch failed". */
const reason = (error: unknown) =>
  error instanceof Error ? [error.message, (error.cause as Error | undefined)?.message].filter(Boolean).join(": ") : String(error);

/**
 * Opens streams of `pathname` until `streams` holds `count`, OPEN_BATCH at a time, spread over the
 * users. One that fails to open is printed and opened again; answers how many failed.
 */
async function openUpTo(streams: Stream[], count: number, accounts: Account[], pathname = "/api/stream"): Promise<number> {
  let failed = 0;
  while (streams.length < count) {
    const start = streams.length;
    const batch = Math.min(OPEN_BATCH, count - start);
    const opened = await Promise.allSettled(
      Array.from({ length: batch }, (_, k) =>
        openStream(pathname, accounts[(start + k) % accounts.length]!, (start + k) % accounts.length, start + k),
      ),
    );
    for (const outcome of opened) {
      if (outcome.status === "fulfilled") streams.push(outcome.value);
      else console.log(`  ${pathname} did not open: ${reason(outcome.reason)}`);
    }
    failed += opened.filter((outcome) => outcome.status === "rejected").length;
    if (failed > count) throw new Error(`${pathname}: ${failed} streams did not open`);
  }
  return failed;
}

const closeAll = (streams: Stream[]) => streams.splice(0).forEach((stream) => stream.close());

/** The server's memory in bytes, the heap after a full collection (/api/bench/memory). */
type Memory = { collected: boolean; heapUsed: number; rss: number };
const memory = async (): Promise<Memory> => (await callJson("/api/bench/memory", addressOf(1))) as unknown as Memory;

/** How long the server is left alone to read what it spends doing nothing. */
const QUIET_S = 10;

/** The server's CPU time per second over QUIET_S seconds with no request sent (its own timers: the streams' heartbeats). */
async function quietCpu(pid: number): Promise<number> {
  const start = cpuMs(pid);
  await sleep(QUIET_S * 1_000);
  return (cpuMs(pid) - start) / QUIET_S;
}

/** kB per stream between two readings. */
const perStream = (before: Memory, after: Memory, streams: number) => ({
  heap: (after.heapUsed - before.heapUsed) / 1024 / streams,
  rss: (after.rss - before.rss) / 1024 / streams,
});

/** A bearer call that answers JSON (the writes). */
const post = (pathname: string, token: string, body: unknown, worker: number) =>
  callJson(pathname, addressOf(4000 + worker), {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

async function benchLiveOn(database: BenchDatabase): Promise<number> {
  const secret = newSecret();
  // This process opens the database to create the users (see accounts.ts).
  for (const key of ["DATABASE_URL", "PGLITE_DIR"]) delete process.env[key];
  Object.assign(process.env, database.env);
  // Enough people that the most streams stay within the server's cap a person (each would end their oldest).
  const accounts = await createUsers(database, secret, Math.max(20, Math.ceil(Math.max(...STREAM_COUNTS) / STREAMS_PER_PERSON)));
  console.log(`\n== live: ${database.label}, ${accounts.length} users; streams spread over them.`);
  const env = appEnv(database.env, secret);
  const { child } = await startServer({
    ...env,
    LIVE_STREAM_MAX_S: "3600",
    NODE_OPTIONS: [env.NODE_OPTIONS, "--expose-gc"].filter(Boolean).join(" "),
  });
  let errors = 0;

  const tokens: string[] = [];
  await runLoad(accounts.length, 5, async (i, w) => {
    tokens[i] = await signIn(accounts[i]!, addressOf(100 + w));
  });
  // A post by each user: a reply to it notifies its author.
  const posts: string[] = [];
  for (let i = 0; i < accounts.length; i++) {
    const body = await post(
      "/api/forum/posts",
      tokens[i]!,
      { title: `Live bench ${i}`, body: "Where next?", topic: "travel", scope: "global" },
      i,
    );
    posts[i] = (body.data as { id: string }).id;
  }

  const meOnce = (w: number) => me(accounts[w % accounts.length]!, tokens[w % accounts.length]!, addressOf(w));
  /** One run of /me after a full collection on the server (so neither side pays the other's garbage): its p99. */
  const meRun = async () => {
    await memory();
    const run = await runFor(PAIR_S, CLIENTS, meOnce);
    errors += [...run.failures.values()].reduce((a, b) => a + b, 0);
    return percentile(
      run.latencies.sort((a, b) => a - b),
      99,
    );
  };
  await runFor(2, 10, meOnce); // warm-up
  const most = Math.max(...STREAM_COUNTS);
  const streams: Stream[] = [];
  // Warm: the stream routes' first calls load their code.
  errors += await openUpTo(streams, OPEN_BATCH, accounts, "/api/bench/idle-stream");
  errors += await openUpTo(streams, OPEN_BATCH * 2, accounts);
  closeAll(streams);
  await sleep(1_000);

  const none = await memory();
  errors += await openUpTo(streams, most, accounts, "/api/bench/idle-stream");
  await sleep(1_000);
  const idle = perStream(none, await memory(), most);
  closeAll(streams);
  await sleep(1_000);

  const before = await memory();
  const quietWithout = await quietCpu(child.pid!);
  const rows: string[][] = [];
  let replies = 0;
  for (const count of STREAM_COUNTS) {
    errors += await openUpTo(streams, count, accounts);
    await sleep(1_000);
    const latencies: number[] = [];
    const fromSend: number[] = [];
    let lost = 0;
    for (let round = 0; round < ROUNDS_PER_COUNT; round++) {
      const author = (replies + round) % accounts.length;
      const writer = (author + 1) % accounts.length;
      const watching = streams.filter((stream) => stream.userIndex === author);
      let responded = 0;
      let sent = 0;
      const arrived = watching.map(
        (stream) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(() => {
              lost++;
              resolve();
            }, DELIVERY_TIMEOUT_MS);
            stream.onNotification = () => {
              // An event can only follow the commit, so it may arrive before this side has read the response: 0 then.
              latencies.push(responded ? Math.max(0, performance.now() - responded) : 0);
              fromSend.push(performance.now() - sent);
              stream.onNotification = undefined;
              clearTimeout(timer);
              resolve();
            };
          }),
      );
      sent = performance.now();
      await post(`/api/forum/posts/${posts[author]}/replies`, tokens[writer]!, { body: `Reply ${replies + round}` }, writer);
      responded = performance.now();
      await Promise.all(arrived);
    }
    replies += ROUNDS_PER_COUNT;
    errors += lost;
    const sorted = latencies.sort((a, b) => a - b);
    const sortedFromSend = fromSend.sort((a, b) => a - b);
    rows.push(
      [
        count,
        sorted.length,
        lost,
        percentile(sorted, 50),
        percentile(sorted, 99),
        percentile(sortedFromSend, 50),
        percentile(sortedFromSend, 99),
      ].map((value, i) => (i < 3 ? String(value) : value.toFixed(1))),
    );
  }
  await sleep(1_000);
  const quietWith = await quietCpu(child.pid!);
  const live = perStream(before, await memory(), streams.length);
  closeAll(streams);
  await sleep(1_000);

  // Alternating, each round: without streams, with the most open, then as many idle ones (Next's share).
  const without: number[] = [];
  const withStreams: number[] = [];
  const withIdle: number[] = [];
  for (let round = 0; round < ME_ROUNDS; round++) {
    without.push(await meRun());
    for (const [pathname, p99s] of [
      ["/api/stream", withStreams],
      ["/api/bench/idle-stream", withIdle],
    ] as const) {
      errors += await openUpTo(streams, most, accounts, pathname);
      await sleep(1_000);
      p99s.push(await meRun());
      closeAll(streams);
      await sleep(1_000);
    }
  }

  printTable(["open streams", "deliveries", "lost", "p50 (ms)", "p99 (ms)", "p50 from send", "p99 from send"], rows);
  const kb = (value: number) => `${value.toFixed(1)} kB`;
  const gc = before.collected ? "after a full collection" : "no --expose-gc: not collected first";
  console.log(
    `\nMemory per open stream at ${most} (target < 50 kB): heap ${kb(live.heap)} (${gc}), resident ${kb(live.rss)}; ` +
      `an idle stream of /api/bench/idle-stream (Next's and Node's own share of any open response): heap ${kb(idle.heap)}, resident ${kb(idle.rss)}.`,
  );
  console.log(
    `Server CPU with no request for ${QUIET_S} s: ${quietWithout.toFixed(1)} ms/s without streams, ${quietWith.toFixed(1)} ms/s with ${most} open (heartbeats every ${HEARTBEAT_MS / 1000} s included).`,
  );
  const ms = (values: number[]) => `${median(values).toFixed(1)} ms`;
  const ratio = (values: number[]) => `${(median(values) / median(without)).toFixed(2)}x`;
  console.log(
    `GET /api/v2/auth/me p99, median of ${ME_ROUNDS} alternating rounds (${PAIR_S} s at ${CLIENTS} clients each): ` +
      `${ms(without)} without streams, ${ms(withStreams)} with ${most} open: ${ratio(withStreams)} (target <= 1.2x); ` +
      `${ms(withIdle)} with ${most} idle streams of /api/bench/idle-stream: ${ratio(withIdle)}.`,
  );
  const rounds = without.map((value, round) => [value, withStreams[round]!, withIdle[round]!].map((p99) => p99.toFixed(0)).join(" / "));
  console.log(`  per round (without / with streams / with idle streams, ms): ${rounds.join(", ")}`);
  await stopGroup(child);
  return errors;
}

export async function benchLive(): Promise<number> {
  await ensureBuild();
  let errors = 0;
  // PGlite first: this process reads the app's configuration once (see accounts.ts).
  for (const kind of [...DATABASES].sort((a, b) => Number(b === "pglite") - Number(a === "pglite"))) {
    const database = kind === "pglite" ? pgliteDatabase() : await postgresDatabase();
    if (!database) {
      console.log(`\n== live: Postgres did not answer at ${ADMIN_URL}: skipped.`);
      continue;
    }
    onCleanup(database.drop);
    errors += await benchLiveOn(database);
  }
  return errors;
}
