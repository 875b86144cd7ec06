/**
 * The `tabs` section: one live connection per browser. BENCH_TABS_BROWSERS (1,000) simulated
 * browsers of BENCH_TABS_PER_BROWSER (3) tabs each, spread over BENCH_TABS_USERS (200) people (five
 * browsers each, under the server's cap of ten a person), against the production build on Postgres
 * (PGlite when Postgres does not answer):
 *   1. how many streams the browsers hold: the EventSources they made, and the server's own count
 *      of open streams (target: one a browser, 1,000, not 3,000);
 *   2. delivery to every tab: BENCH_TABS_ROUNDS forum replies, each to a post of another person;
 *      the time from the reply's answer (and from its sending) to its `notification` event
 *      applied in each tab of each of that person's browsers (15 tabs a round), p50/p99 (target:
 *      p99 under 250 ms), and how many never arrived within 10 s;
 *   3. the cap a person: one person opens STREAMS_PER_PERSON + 2 streams one after the other; the
 *      server holds STREAMS_PER_PERSON, the oldest two ended with `replaced`.
 * What is simulated (tabs-browsers.ts, a process of its own): the tabs run the app's own browser
 * code (lib/live/client/tabs.ts and stream.ts), with stand-ins for Web Locks (in-process, one per
 * browser), BroadcastChannel (Node's own) and EventSource (fetch: one real HTTP stream per leader
 * tab); no page renders. The server side is real: one open stream per browser.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ORIGIN } from "./config";
import { onCleanup } from "./cleanup";
import { createUsers, type Account } from "./accounts";
import { addressOf, callJson, signIn } from "./client";
import { pgliteDatabase, postgresDatabase } from "./databases";
import { printTable } from "./report";
import { appEnv, ensureBuild, newSecret, startServer, stopGroup } from "./server";
import { percentile } from "./stats";
import type { TabsFigures, TabsPlan } from "./tabs-browsers";
import { STREAMS_PER_PERSON } from "@/lib/live/rules";

const BROWSERS = Number(process.env.BENCH_TABS_BROWSERS ?? 1_000);
const TABS_PER_BROWSER = Number(process.env.BENCH_TABS_PER_BROWSER ?? 3);
const USERS = Number(process.env.BENCH_TABS_USERS ?? 200);
const ROUNDS = Number(process.env.BENCH_TABS_ROUNDS ?? 20);

/** Runs the simulated browsers and answers their figures (their last output line). */
function runBrowsers(plan: TabsPlan): Promise<TabsFigures> {
  const folder = mkdtempSync(path.join(os.tmpdir(), "couples-tabs-"));
  const file = path.join(folder, "plan.json");
  writeFileSync(file, JSON.stringify(plan));
  // Without the react-server condition: the tabs run browser code ("client-only").
  const child = spawn(process.execPath, ["--import", "tsx", path.join("scripts", "bench", "tabs-browsers.ts"), file], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.on("exit", (code) => {
      rmSync(folder, { recursive: true, force: true });
      if (code !== 0) return reject(new Error(`the simulated browsers exited with ${code}`));
      resolve(JSON.parse(output.trim().split("\n").at(-1)!) as TabsFigures);
    }),
  );
}

const serverStreams = async () => ((await callJson("/api/bench/memory", addressOf(1))) as { liveStreams: number }).liveStreams;

/** One person opens STREAMS_PER_PERSON + 2 streams in turn: how many the server holds, how many ended with `replaced`. */
async function capCheck(account: Account): Promise<{ opened: number; held: number; replaced: number }> {
  for (let waited = 0; (await serverStreams()) > 0 && waited < 10_000; waited += 250) await sleep(250);
  const opened = STREAMS_PER_PERSON + 2;
  const abort = new AbortController();
  let replaced = 0;
  for (let i = 0; i < opened; i++) {
    const response = await fetch(`${ORIGIN}/api/stream`, {
      headers: { cookie: account.cookie, "x-forwarded-for": addressOf(500 + i) },
      signal: abort.signal,
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let markOpen!: () => void;
    const open = new Promise<void>((resolve) => (markOpen = resolve));
    void (async () => {
      let text = "";
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          text += value;
          if (text.includes("event: unread\n")) markOpen();
          if (text.includes("event: replaced\n")) return void replaced++;
        }
      } catch {
        // Closed by the bench.
      } finally {
        markOpen();
      }
    })();
    await open;
  }
  await sleep(500);
  const held = await serverStreams();
  abort.abort();
  return { opened, held, replaced };
}

export async function benchTabs(): Promise<number> {
  await ensureBuild();
  const database = (await postgresDatabase()) ?? pgliteDatabase();
  onCleanup(database.drop);
  const secret = newSecret();
  for (const key of ["DATABASE_URL", "PGLITE_DIR"]) delete process.env[key];
  Object.assign(process.env, database.env);
  const accounts = await createUsers(database, secret, USERS);
  console.log(`\n== tabs: ${database.label}, ${BROWSERS} simulated browsers of ${TABS_PER_BROWSER} tabs over ${accounts.length} people.`);
  const { child } = await startServer({ ...appEnv(database.env, secret), LIVE_STREAM_MAX_S: "3600" });

  // Each round a reply by the next person to a post of this one.
  const rounds: TabsPlan["rounds"] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const author = (i * 7) % accounts.length;
    const writer = (author + 1) % accounts.length;
    const [authorToken, writerToken] = [
      await signIn(accounts[author]!, addressOf(100 + i)),
      await signIn(accounts[writer]!, addressOf(200 + i)),
    ];
    const created = await callJson("/api/forum/posts", addressOf(300 + i), {
      method: "POST",
      headers: { authorization: `Bearer ${authorToken}`, "content-type": "application/json" },
      body: JSON.stringify({ title: `Tabs bench ${i}`, body: "Where next?", topic: "travel", scope: "global" }),
    });
    rounds.push({ user: author, post: (created.data as { id: string }).id, token: writerToken });
  }

  const figures = await runBrowsers({
    origin: ORIGIN,
    tabsPerBrowser: TABS_PER_BROWSER,
    browsers: Array.from({ length: BROWSERS }, (_, b) => ({ cookie: accounts[b % accounts.length]!.cookie, user: b % accounts.length })),
    rounds,
  });
  const cap = await capCheck(accounts[0]!);
  await stopGroup(child);

  const fromAnswer = figures.fromAnswer.sort((a, b) => a - b);
  const fromSend = figures.fromSend.sort((a, b) => a - b);
  printTable(
    [
      "browsers",
      "tabs",
      "streams made",
      "streams the server holds",
      "deliveries",
      "lost",
      "p50 (ms)",
      "p99 (ms)",
      "p50 from send",
      "p99 from send",
    ],
    [
      [
        figures.browsers,
        figures.tabs,
        figures.opened,
        figures.serverStreams,
        fromAnswer.length,
        figures.lost,
        ...[fromAnswer, fromAnswer, fromSend, fromSend].map((sorted, i) => percentile(sorted, i % 2 ? 99 : 50).toFixed(1)),
      ].map(String),
    ],
  );
  console.log(
    `One stream a browser (target ${figures.browsers}, not ${figures.tabs}); delivery to every tab, p99 target under 250 ms. ` +
      `Server heap with them open: ${(figures.serverHeapBytes / 1024 / 1024).toFixed(0)} MB. Simulated: the browsers (tabs-browsers.ts); real: the server and its streams.`,
  );
  console.log(
    `The cap a person: one person opened ${cap.opened} streams in turn; the server held ${cap.held} (cap ${STREAMS_PER_PERSON}), ${cap.replaced} ended with 'replaced'.`,
  );
  const capMissed = Math.abs(cap.held - STREAMS_PER_PERSON) + Math.abs(cap.replaced - (cap.opened - STREAMS_PER_PERSON));
  return figures.lost + Math.abs(figures.serverStreams - figures.browsers) + capMissed;
}
