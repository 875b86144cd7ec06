/**
 * The `live` section: the live stream (GET /api/stream) on Postgres, from the production build.
 *   1. delivery latency: with 50, 200 and 1,000 streams open (BENCH_LIVE_STREAMS), spread over the
 *      bench's users, a forum reply is posted to a user's post; the time from the POST's response
 *      to the reply's `notification` event on each of that user's open streams, p50/p99
 *      (BENCH_LIVE_ROUNDS replies per stream count; targets: p99 under 250 ms at 1,000), and from the
 *      POST's sending (an event may arrive before its response has been read: 0 from the response);
 *   2. the server's memory per open stream (resident memory with the most streams open, less
 *      before any; target: under 50 kB);
 *   3. GET /api/v2/auth/me's p99 without streams and with the most streams open (BENCH_PAIR_S
 *      seconds each, ROUNDS times; target: at most 1.2x).
 * PGlite is not measured here: the bench's process would have to open a second embedded database.
 */
import { ADMIN_URL, CLIENTS, ORIGIN, PAIR_S, ROUNDS } from "./config";
import { onCleanup } from "./cleanup";
import { createUsers, type Account } from "./accounts";
import { addressOf, callJson, me, signIn } from "./client";
import { postgresDatabase } from "./databases";
import { runFor, runLoad } from "./load";
import { rssKb } from "./memory";
import { printTable } from "./report";
import { appEnv, ensureBuild, newSecret, startServer, stopGroup } from "./server";
import { percentile } from "./stats";

const STREAM_COUNTS = (process.env.BENCH_LIVE_STREAMS ?? "50,200,1000").split(",").map(Number);
const ROUNDS_PER_COUNT = Number(process.env.BENCH_LIVE_ROUNDS ?? 10);
/** How long a reply's event may take before it counts as lost. */
const DELIVERY_TIMEOUT_MS = 10_000;
/** Streams opened at once while growing to a count. */
const OPEN_BATCH = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One open stream: calls `onNotification` when a `notification` event arrives. */
type Stream = { userIndex: number; close: () => void; onNotification?: () => void };

async function openStream(account: Account, userIndex: number, worker: number): Promise<Stream> {
  const abort = new AbortController();
  const response = await fetch(`${ORIGIN}/api/stream`, {
    headers: { cookie: account.cookie, "x-forwarded-for": addressOf(3000 + worker) },
    signal: abort.signal,
  });
  if (!response.ok || !response.body) throw new Error(`stream: ${response.status}`);
  const stream: Stream = { userIndex, close: () => abort.abort() };
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    // The end of the previous chunk: an event's name may be cut between two chunks.
    let tail = "";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        if ((tail + value).includes("event: notification\n")) stream.onNotification?.();
        tail = value.slice(-24);
      }
    } catch {
      // closed by the bench
    }
  })();
  return stream;
}

/** A bearer call that answers JSON (the writes). */
const post = (pathname: string, token: string, body: unknown, worker: number) =>
  callJson(pathname, addressOf(4000 + worker), {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

export async function benchLive(): Promise<number> {
  await ensureBuild();
  const database = await postgresDatabase();
  if (!database) {
    console.log(`\n== live: Postgres did not answer at ${ADMIN_URL}: skipped.`);
    return 0;
  }
  onCleanup(database.drop);
  const secret = newSecret();
  for (const key of ["DATABASE_URL", "PGLITE_DIR"]) delete process.env[key];
  Object.assign(process.env, database.env);
  const accounts = await createUsers(database, secret);
  console.log(`\n== live: ${database.label}, ${accounts.length} users; streams spread over them.`);
  const { child } = await startServer(appEnv(database.env, secret));
  const pid = child.pid!;
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
  const meP99 = async () => {
    const runs = [];
    for (let r = 0; r < ROUNDS; r++) runs.push(await runFor(PAIR_S, CLIENTS, meOnce));
    errors += runs.reduce((sum, run) => sum + [...run.failures.values()].reduce((a, b) => a + b, 0), 0);
    return percentile(
      runs.flatMap((run) => run.latencies).sort((a, b) => a - b),
      99,
    );
  };
  await runFor(2, 10, meOnce); // warm-up
  const meWithout = await meP99();
  await sleep(1_000);
  const before = rssKb(pid);

  const streams: Stream[] = [];
  const rows: string[][] = [];
  let replies = 0;
  for (const count of STREAM_COUNTS) {
    while (streams.length < count) {
      const batch = Math.min(OPEN_BATCH, count - streams.length);
      const start = streams.length;
      streams.push(
        ...(await Promise.all(
          Array.from({ length: batch }, (_, k) =>
            openStream(accounts[(start + k) % accounts.length]!, (start + k) % accounts.length, start + k),
          ),
        )),
      );
    }
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
  const perStreamKb = (rssKb(pid) - before) / streams.length;
  const meWith = await meP99();
  streams.forEach((stream) => stream.close());

  printTable(["open streams", "deliveries", "lost", "p50 (ms)", "p99 (ms)", "p50 from send", "p99 from send"], rows);
  console.log(
    `\nMemory per open stream: ${perStreamKb.toFixed(1)} kB (resident memory with ${streams.length} streams, less before any; target < 50 kB).`,
  );
  console.log(
    `GET /api/v2/auth/me p99: ${meWithout.toFixed(1)} ms without streams, ${meWith.toFixed(1)} ms with ${streams.length} open: ${(meWith / meWithout).toFixed(2)}x (target <= 1.2x; ${ROUNDS} x ${PAIR_S} s at ${CLIENTS} clients each).`,
  );
  await stopGroup(child);
  return errors;
}
