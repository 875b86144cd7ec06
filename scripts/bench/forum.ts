/**
 * The forum's section of `npm run bench` (BENCH_SECTIONS=forum): p50 and p99 of the forum's calls
 * on real Postgres, on a 10,000-post data set and on the scale data set, with
 * GET /api/v2/auth/me under the same load for the ratio, and the plan of every query.
 *
 * The data sets are made beforehand by the scale seed, each in a database of its own:
 *   createdb -h 127.0.0.1 -U postgres forum_scale_10k
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/forum_scale_10k SCALE_COUPLES=1000 SCALE_POSTS=10000 \
 *     SCALE_REPLIES=50000 SCALE_REACTIONS=20000 npm run db:seed -- --scale
 *   createdb -h 127.0.0.1 -U postgres forum_scale
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/forum_scale npm run db:seed -- --scale
 * BENCH_FORUM_DATABASES (default "forum_scale_10k,forum_scale") names them on the Postgres of
 * TEST_DATABASE_URL. Each is measured in a child process of its own (the app's database handle is
 * one per process) that calls the route handlers in process, as Next.js does, without HTTP:
 * the figures are the app's and the database's, not the network's. BENCH_FORUM_REQUESTS (200)
 * requests per call at BENCH_FORUM_CLIENTS (4) at once, after 10 warm-up requests; then the global
 * list and /me interleaved (each client alternating them), so their ratio is taken under the same load.
 * The databases take turns for BENCH_FORUM_ROUNDS (3) rounds, each figure the median of its rounds'.
 *
 * Plans: a last pass runs each call once on connections that load auto_explain (log_analyze,
 * log_buffers) and reads the plans back from the server's log (a superuser's pg_read_file):
 * each statement's plan, shortened to its node lines. BENCH_FORUM_EXPLAIN=0 skips it.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { sql } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { NextRequest } from "next/server";
import { ADMIN_URL } from "./config";
import { printTable } from "./report";
import { median, percentile } from "./stats";

const TSX_CLI = path.join("node_modules", "tsx", "dist", "cli.mjs");
const count = (name: string, fallback: number) => Math.max(1, Math.round(Number(process.env[name] ?? fallback)) || fallback);

/** `items`: how many rows the call's answer held (its list's page, a thread's replies), read from a warm-up answer. */
type Timing = { name: string; p50: number; p99: number; errors: number; status: string; items: number | null };
type WorkerResult = {
  label: string;
  posts: number;
  replies: number;
  couples: number;
  timings: Timing[];
  paired: [Timing, Timing];
  plans: Record<string, string[]>;
};

const CALLS = [
  "global list",
  "local list (50 km, 10 a page)",
  "post page, 200 replies",
  "search",
  "search, common word",
  "post a reply",
  "GET /api/v2/auth/me",
] as const;

/* ---------------------------------------------------------------- parent */

const databaseUrl = (name: string) => `${ADMIN_URL.replace(/\/[^/?]*(\?.*)?$/, "")}/${name}`;

/** One worker's figures from its rounds: each p50 and p99 the median of the rounds', errors summed, the plans of the round that took them. */
function combined(results: WorkerResult[]): WorkerResult {
  const merge = (pick: (result: WorkerResult) => Timing): Timing => {
    const all = results.map(pick);
    return {
      name: all[0]!.name,
      p50: median(all.map((t) => t.p50)),
      p99: median(all.map((t) => t.p99)),
      errors: all.reduce((sum, t) => sum + t.errors, 0),
      status: all.map((t) => t.status).join(", "),
      items: all[0]!.items,
    };
  };
  const first = results[0]!;
  return {
    ...first,
    timings: first.timings.map((_, i) => merge((result) => result.timings[i]!)),
    paired: [merge((result) => result.paired[0]), merge((result) => result.paired[1])],
    plans: Object.assign({}, ...results.map((result) => result.plans)),
  };
}

function runWorker(name: string, withPlans: boolean): Promise<WorkerResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSX_CLI, "--conditions", "react-server", "scripts/bench/forum.ts", "--worker"], {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl(name),
        BENCH_FORUM_LABEL: name,
        ...(withPlans ? {} : { BENCH_FORUM_EXPLAIN: "0" }),
        AUTH_SECRET: randomBytes(36).toString("base64url"),
        APP_URL: "http://localhost:3000",
        NODE_ENV: "production",
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      const line = out.split("\n").find((l) => l.startsWith("RESULT "));
      if (code !== 0 || !line) reject(new Error(`forum bench on ${name} failed (exit ${code})\n${out.slice(-2000)}`));
      else resolve(JSON.parse(line.slice("RESULT ".length)) as WorkerResult);
    });
  });
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

/** Runs the forum section; answers the number of failed requests. */
export async function benchForum(): Promise<number> {
  const names = (process.env.BENCH_FORUM_DATABASES ?? "forum_scale_10k,forum_scale").split(",").map((n) => n.trim());
  console.log(
    `\n== Forum: ${names.join(" vs ")} (${count("BENCH_FORUM_REQUESTS", 200)} requests per call at ${count("BENCH_FORUM_CLIENTS", 4)} clients)`,
  );
  // The sizes in turn, BENCH_FORUM_ROUNDS times (the plans once): a load that comes and goes
  // falls on both, and each figure is the median of its rounds'.
  const rounds = count("BENCH_FORUM_ROUNDS", 3);
  const runs = new Map<string, WorkerResult[]>(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) for (const name of names) runs.get(name)!.push(await runWorker(name, round === 0));
  const results = names.map((name) => combined(runs.get(name)!));
  const [base, scale] = [results[0]!, results.at(-1)!];
  for (const r of results)
    console.log(
      `${r.label}: ${r.couples.toLocaleString("en-US")} couples, ${r.posts.toLocaleString("en-US")} posts, ${r.replies.toLocaleString("en-US")} replies`,
    );
  const rows = CALLS.map((call) => {
    const a = base.timings.find((t) => t.name === call)!;
    const b = scale.timings.find((t) => t.name === call)!;
    const items = a.items === null ? "" : `${a.items} / ${b.items}`;
    return [
      call,
      ms(a.p50),
      ms(a.p99),
      ms(b.p50),
      ms(b.p99),
      `${(b.p50 / a.p50).toFixed(2)}x`,
      `${(b.p99 / a.p99).toFixed(2)}x`,
      items,
      b.status,
    ];
  });
  const header = [
    "call",
    `p50 ${base.label}`,
    `p99 ${base.label}`,
    `p50 ${scale.label}`,
    `p99 ${scale.label}`,
    "p50 ratio",
    "p99 ratio",
    "rows",
    "status",
  ];
  printTable(header, rows);
  // A ratio between answers of different sizes measures the answers, not the sizes of the sets.
  for (const call of CALLS) {
    const [a, b] = [base, scale].map((r) => r.timings.find((t) => t.name === call)!.items);
    if (a !== b) console.log(`${call}: the two answers hold ${a} and ${b} rows: its ratio compares unequal pages`);
  }
  for (const r of results) {
    const list = r.timings.find((t) => t.name === "global list")!;
    const me = r.timings.find((t) => t.name === "GET /api/v2/auth/me")!;
    console.log(`${r.label}: global list / auth/me p50 ${(list.p50 / me.p50).toFixed(2)}x, p99 ${(list.p99 / me.p99).toFixed(2)}x`);
    const [pairedList, pairedMe] = r.paired;
    console.log(
      `${r.label}: interleaved (each client alternating the two): global list ${ms(pairedList.p50)} / auth/me ${ms(pairedMe.p50)} p50 ${(pairedList.p50 / pairedMe.p50).toFixed(2)}x, p99 ${(pairedList.p99 / pairedMe.p99).toFixed(2)}x`,
    );
  }
  for (const r of results) {
    if (Object.keys(r.plans).length === 0) continue;
    console.log(`\n-- Plans on ${r.label} (auto_explain, ANALYZE, BUFFERS)`);
    for (const [call, plans] of Object.entries(r.plans)) {
      console.log(`\n[${call}]`);
      for (const plan of plans) console.log(plan);
    }
  }
  return results.flatMap((r) => r.timings).reduce((sum, t) => sum + t.errors, 0);
}

/* ---------------------------------------------------------------- worker */

type Handler = (request: NextRequest, context: { params: Promise<never> }) => Promise<Response>;
type Session = { userId: string; cookie: string; csrf: string };
type Answer = { status: number; body: string };

let addressCounter = 0;
async function invoke(
  handler: Handler,
  method: string,
  url: string,
  session: Session,
  params: Record<string, string> = {},
  body?: unknown,
): Promise<Answer> {
  const headers = new Headers({
    cookie: session.cookie,
    "x-forwarded-for": `198.18.${(addressCounter >> 8) & 255}.${addressCounter++ & 255}`,
  });
  if (method !== "GET") headers.set("x-csrf-token", session.csrf);
  if (body !== undefined) headers.set("content-type", "application/json");
  const request = new NextRequest(new URL(url, "http://localhost:3000"), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const response = await handler(request, { params: Promise.resolve(params as never) });
  const text = await response.text();
  if (response.status >= 400 && process.env.BENCH_FORUM_DEBUG) console.error(method, url, response.status, text.slice(0, 300));
  return { status: response.status, body: text };
}

/** The rows an answer holds: a list's page (`data`), a thread's replies (`data.replies`); null for anything else. */
function itemsOf(body: string): number | null {
  const data = (JSON.parse(body) as { data?: unknown }).data;
  if (Array.isArray(data)) return data.length;
  const replies = (data as { replies?: unknown } | undefined)?.replies;
  return Array.isArray(replies) ? replies.length : null;
}

async function measure(name: string, total: number, clients: number, send: (i: number) => Promise<Answer>): Promise<Timing> {
  const items = itemsOf((await send(total)).body);
  for (let i = 1; i < 10; i++) await send(total + i);
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < total) {
        const i = next++;
        const started = performance.now();
        const status = await send(i).then(
          (answer) => answer.status,
          () => 0,
        );
        latencies.push(performance.now() - started);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  return timing(name, latencies, statuses, items);
}

function timing(name: string, latencies: number[], statuses: Map<number, number>, items: number | null = null): Timing {
  latencies.sort((a, b) => a - b);
  const errors = [...statuses].filter(([status]) => status < 200 || status >= 300).reduce((sum, [, n]) => sum + n, 0);
  return {
    name,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
    status: [...statuses].map(([s, n]) => `${s}x${n}`).join(" "),
    items,
  };
}

/**
 * Two calls under the same load: each client alternates them, so a ratio of the two is not
 * skewed by what the machine's other work did while one of them ran alone.
 */
async function measurePair(
  names: [string, string],
  total: number,
  clients: number,
  sends: [() => Promise<Answer>, () => Promise<Answer>],
): Promise<[Timing, Timing]> {
  const latencies: [number[], number[]] = [[], []];
  const statuses: [Map<number, number>, Map<number, number>] = [new Map(), new Map()];
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < total) {
        for (const k of [0, 1] as const) {
          next++;
          const started = performance.now();
          const status = await sends[k]().then(
            (answer) => answer.status,
            () => 0,
          );
          latencies[k].push(performance.now() - started);
          statuses[k].set(status, (statuses[k].get(status) ?? 0) + 1);
        }
      }
    }),
  );
  return [timing(names[0], latencies[0], statuses[0]), timing(names[1], latencies[1], statuses[1])];
}

async function worker(): Promise<void> {
  const { getDb, closeDb } = await import("@/db/client");
  const { createSession } = await import("@/lib/auth/sessions");
  const { sessionCookieName } = await import("@/lib/auth/session-token");
  const { csrfTokenFor } = await import("@/lib/http/request-auth");
  const posts = await import("@/app/api/forum/posts/route");
  const thread = await import("@/app/api/forum/posts/[id]/route");
  const replies = await import("@/app/api/forum/posts/[id]/replies/route");
  const me = await import("@/app/api/v2/auth/me/route");
  const db = await getDb();
  const rows = async <T>(query: ReturnType<typeof sql>) => (await db.execute(query)) as unknown as T[];

  // The densest local place: the city with the most local posts, and a couple living there.
  const [dense] = await rows<{ place: string }>(
    sql`select place from forum_posts where scope = 'local' group by place order by count(*) desc limit 1`,
  );
  const city = dense!.place.split(", ")[0]!;
  const [centre] = await rows<{
    user_id: string;
    couple_id: string;
  }>(sql`select c.partner1_id as user_id, c.id as couple_id from locations l
    join couples c on c.id = l.entity_id where l.entity_type = 'couple' and l.city = ${city} and c.status = 'active' limit 1`);
  // The search term: the city with the most global posts (the search is in the global forum), so
  // it finds a full page on both data sets; the densest local place found none at 10,000 posts,
  // which compared an empty answer with a full one.
  const [searched] = await rows<{
    city: string;
  }>(sql`select l.city from forum_posts p join locations l on l.entity_type = 'couple' and l.entity_id = p.couple_id
    where p.scope = 'global' group by l.city order by count(*) desc limit 1`);
  console.error(`${process.env.BENCH_FORUM_LABEL}: search terms "${searched!.city}" and "weekend"`);
  const others = await rows<{ user_id: string }>(
    sql`select partner1_id as user_id from couples where status = 'active' and id <> ${centre!.couple_id} order by id limit 60`,
  );
  const name = sessionCookieName();
  const session = async (userId: string): Promise<Session> => {
    const sid = await createSession(db, userId, "browser");
    const token = await encode({
      token: { sub: userId, sid, emailVerified: true, profileComplete: true, isPartnerB: false },
      secret: process.env.AUTH_SECRET!,
      salt: name,
    });
    return { userId, cookie: `${name}=${token}`, csrf: csrfTokenFor(sid) };
  };
  const viewer = await session(centre!.user_id);
  const writers = await Promise.all(others.map((o) => session(o.user_id)));

  // Ids the API accepts (RFC 4122 version and variant digits): a data set seeded before the scale
  // seed set them has only some such ids; the bench picks among those.
  const validId = sql`id::text ~ '^.{14}[1-8].{4}[89ab]'`;
  // The post page: an early global post, with 200 replies (topped up, idempotently).
  const [post] = await rows<{ id: string }>(
    sql`select id from forum_posts where scope = 'global' and deleted_at is null and ${validId} order by created_at limit 1`,
  );
  await db.execute(sql`insert into forum_replies (id, post_id, author_user_id, couple_id, body, created_at)
    select overlay(overlay(md5('bench-r-' || k) placing '4' from 13) placing '8' from 17)::uuid, ${post!.id}, c.partner1_id, c.id, 'Bench reply ' || k, now() - make_interval(secs => 1000 - k)
    from generate_series(1, 200) k join lateral (select id, partner1_id from couples order by id offset (k % 50) limit 1) c on true
    on conflict do nothing`);
  await db.execute(
    sql`update forum_posts set reply_count = (select count(*) from forum_replies where post_id = ${post!.id} and deleted_at is null) where id = ${post!.id}`,
  );
  const [{ n: replyCount } = { n: 0 }] = await rows<{ n: number }>(
    sql`select count(*)::int as n from forum_replies where post_id = ${post!.id}`,
  );
  if (replyCount < 200) throw new Error(`the post page has ${replyCount} replies`);
  // Posts to reply to: the latest global ones.
  const targets = await rows<{ id: string }>(
    sql`select id from forum_posts where scope = 'global' and deleted_at is null and ${validId} order by created_at desc limit 50`,
  );
  const [sizes] = await rows<{ posts: number; replies: number; couples: number }>(sql`select
    (select reltuples::bigint from pg_class where relname = 'forum_posts') as posts,
    (select reltuples::bigint from pg_class where relname = 'forum_replies') as replies,
    (select count(*)::int from couples) as couples`);

  const calls: Record<(typeof CALLS)[number], (i: number) => Promise<Answer>> = {
    "global list": () => invoke(posts.GET as Handler, "GET", "/api/forum/posts?scope=global&sort=latest", viewer),
    // Ten a page: the small set holds ten posts within 50 km of its densest place, so a page of
    // the default twenty would compare its ten with the large set's twenty (the "rows" column).
    "local list (50 km, 10 a page)": () => invoke(posts.GET as Handler, "GET", "/api/forum/posts?scope=local&radius=50&limit=10", viewer),
    "post page, 200 replies": () =>
      invoke(thread.GET as Handler, "GET", `/api/forum/posts/${post!.id}?limit=200`, viewer, { id: post!.id }),
    search: () => invoke(posts.GET as Handler, "GET", `/api/forum/posts?scope=global&q=${encodeURIComponent(searched!.city)}`, viewer),
    // A word in most posts: ranking every match is what grew with the table (lib/forum/search.ts).
    "search, common word": () => invoke(posts.GET as Handler, "GET", "/api/forum/posts?scope=global&q=weekend", viewer),
    "post a reply": (i) => {
      const writer = writers[i % writers.length]!;
      const target = targets[i % targets.length]!.id;
      return invoke(
        replies.POST as Handler,
        "POST",
        `/api/forum/posts/${target}/replies`,
        writer,
        { id: target },
        { body: `Bench reply ${Date.now()} ${i} ${randomBytes(4).toString("hex")}` },
      );
    },
    "GET /api/v2/auth/me": () => invoke(me.GET as Handler, "GET", "/api/v2/auth/me", viewer),
  };

  // Rate limits are per person and hour: a bench run within the hour of another (whose writers
  // are the same people) must not meet them.
  const forgetReplyLimits = () => db.execute(sql`delete from rate_limit_hits where bucket = 'forum-reply:user'`);
  await forgetReplyLimits();
  const total = count("BENCH_FORUM_REQUESTS", 200);
  const clients = count("BENCH_FORUM_CLIENTS", 4);
  const timings: Timing[] = [];
  for (const call of CALLS) timings.push(await measure(call, total, clients, calls[call]));
  const paired = await measurePair(["global list", "GET /api/v2/auth/me"], 2 * total, clients, [
    () => calls["global list"](0),
    () => calls["GET /api/v2/auth/me"](0),
  ]);
  await forgetReplyLimits();

  const plans: Record<string, string[]> = {};
  if (process.env.BENCH_FORUM_EXPLAIN !== "0") {
    const log = "/var/log/postgresql/postgresql-15-main.log";
    const database = sql.identifier(new URL(process.env.DATABASE_URL!).pathname.slice(1));
    const settings = {
      session_preload_libraries: "auto_explain",
      "auto_explain.log_min_duration": "0",
      "auto_explain.log_analyze": "on",
      "auto_explain.log_buffers": "on",
    };
    for (const [key, value] of Object.entries(settings))
      await db.execute(sql`alter database ${database} set ${sql.identifier(key)} = ${sql.raw(`'${value}'`)}`);
    try {
      await closeDb();
      const explainDb = await getDb();
      const [{ size } = { size: 0 }] = (await explainDb.execute(
        sql`select size::bigint as size from pg_stat_file(${log}, true)`,
      )) as unknown as { size: number }[];
      let offset = Number(size);
      for (const call of CALLS) {
        await calls[call](total + 100);
        const [chunk] = (await explainDb.execute(sql`select pg_read_file(${log}, ${offset}, 10000000) as text`)) as unknown as {
          text: string;
        }[];
        offset += Buffer.byteLength(chunk?.text ?? "");
        plans[call] = shortPlans(chunk?.text ?? "");
      }
    } finally {
      const admin = await getDb();
      for (const key of Object.keys(settings)) await admin.execute(sql`alter database ${database} reset ${sql.identifier(key)}`);
    }
  }
  await db.execute(sql`select 1`).catch(() => {});
  console.log(
    `RESULT ${JSON.stringify({ label: process.env.BENCH_FORUM_LABEL ?? "db", posts: Number(sizes!.posts), replies: Number(sizes!.replies), couples: sizes!.couples, timings, paired, plans } satisfies WorkerResult)}`,
  );
  await closeDb();
}

/** The auto_explain entries of a log chunk, each as its query's first line and its plan's node lines. */
function shortPlans(text: string): string[] {
  const entries = text.split(/\n(?=\S[^\n]*LOG:\s+duration:)/).filter((entry) => entry.includes("Query Text:"));
  return (
    entries
      .map((entry) => {
        const lines = entry.split("\n");
        const query = (entry.match(/Query Text: ([^\n]*)/)?.[1] ?? "").slice(0, 160);
        const nodes = lines
          .filter(
            (line) =>
              /->|^\s*(?:Limit|Sort|Index|Bitmap|Seq Scan|Nested|Hash|Aggregate|Insert|Update|Result|Unique|Incremental|Merge|GroupAggregate|WindowAgg|Append)/.test(
                line.replace(/^\t/, ""),
              ) || /Execution Time|Buffers:/.test(line),
          )
          .filter((line) => (!/Buffers:/.test(line) || /shared/.test(line)) && !/never executed/.test(line))
          .slice(0, 40)
          .map((line) => `    ${line.trim().slice(0, 180)}`);
        return `  ${query}\n${nodes.join("\n")}`;
      })
      // Not the app's: the bench's own reads of the log.
      .filter((entry) => !/^\s*(?:select 1|begin|commit|set |show )/i.test(entry) && !/pg_read_file|pg_stat_file/.test(entry))
  );
}

if (process.argv.includes("--worker")) {
  worker().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
