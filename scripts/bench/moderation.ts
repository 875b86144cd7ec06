/**
 * The moderation benchmark: p50/p99 of the moderators' queue (`moderationQueue`, one row per target, what
 * `GET /api/moderation/reports` and /moderation run) with as many open reports as couples, for a
 * moderator without a couple and for one of couple 1 (the reports against it and the couples it reported left out),
 * of the held hellos' queue (`couplesWithHeldHellos`, one row per sending couple, what
 * `GET /api/moderation/held` and /moderation run) with as many held hellos as couples, from a tenth of them,
 * of a couple's moderator page (`coupleRecord` and `partnerVerifications`, `GET /api/moderation/couples/{id}`),
 * of the photo verification queue (`pendingVerifications`, what `GET /api/moderation/verifications`
 * and /moderation/verifications run) with as many pending selfies as couples, and of the appeals' queue
 * (`openAppeals`, `GET /api/moderation/appeals` and /moderation) with a tenth of the couples suspended
 * and appealing; the held hellos', verification and appeals' queues also for couple 1's moderator, whose couple has ten open reports
 * (of couples, posts, replies and messages) against couples that lead every queue, left out before
 * its limit (`mayDecideFor`, `mayJudge`); and of the reports
 * queue's page where a few targets were reported many times at once (three posts with a hundredth
 * of the size's reports each, filed in one hour 45 days ago: a real network's largest groups grow
 * with it), and of the page after it, at each size
 * (default 1,000 and 100,000), timed at every size back to back in each sample, with the ratio
 * of the largest to the smallest (target: within 1.2x);
 * and of a couple's list of the couples it blocked (`listBlocks`, `GET /api/blocks` and /settings/blocked:
 * couple 3, which blocked 500 couples at every size, among a block per two couples), first page and the next;
 * and the held-request check's own time (`holdsHello`, run inside `POST /api/connections`; target:
 * under 5 ms p99) for a sender at its daily limit, from the client and inside Postgres. Each statement's EXPLAIN (ANALYZE, BUFFERS) is printed
 * with the index it uses. Each size gets a scale database of its own (`bench_mod_<n>_<time>`,
 * dropped afterwards), filled by the database itself with generate_series.
 *
 * Run alone: `npx tsx --conditions react-server scripts/bench/moderation.ts`, or from
 * `npm run bench` with BENCH_SECTIONS including `moderation`. Sizes: BENCH_MODERATION_SIZES
 * (default "1000,100000"); samples per query: BENCH_MODERATION_SAMPLES (default 200).
 */
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import * as schema from "@/db/schema";
import type { Db } from "@/db/client";
import { moderationQueue } from "@/lib/forum/reports";
import { cursorAfter } from "@/lib/pagination/cursor";
import { QUEUE_CONTEXT } from "@/lib/safety/reports";
import { openAppeals } from "@/lib/safety/appeals";
import { listBlocks } from "@/lib/safety/block-list";
import { coupleRecord } from "@/lib/safety/couple-record";
import { couplesWithHeldHellos, holdsHello } from "@/lib/safety/spam";
import { partnerVerifications, pendingVerifications } from "@/lib/verification/queries";
import { ADMIN_URL } from "./config";
import { printTable } from "./report";
import { percentile } from "./stats";

const quiet = { onnotice: () => {} };
const RATIO_TARGET = 1.2;
const HELD_CHECK_TARGET_MS = 5;

/**
 * Fills an empty migrated database with `n` couples (two partners each), a conversation of four
 * messages per pair of couples, three hellos per couple over 60 days, a block per two couples,
 * and `n` open reports (half of couples, half of messages), each by a different person, and the
 * burst: `n / 100` reports on each of three posts (every tenth with a note), in one hour. Couple 1
 * is the page's subject and the hello sender, the same at every size (only the network around it
 * grows): 25 reports and 20 blocks against it, and at its daily limit of hellos (10 in the last
 * hours, the same note). And `n` held hellos from a tenth of the couples, `n` pending selfies (one partner of each couple, sent over 30 days),
 * a tenth of the couples suspended with an open appeal each, and couple 1's own reports (`fillReportedByCouple1`).
 */
async function fill(sql: postgres.Sql, n: number): Promise<void> {
  const pairs = Math.floor(n / 2);
  await sql.unsafe(`insert into users (id, email, password_hash, first_name, last_name, date_of_birth, email_verified_at)
    select md5('u' || g)::uuid, 'u' || g || '@bench.test', 'x', 'First' || g, 'Last' || g, date '1990-01-01', now()
    from generate_series(1, ${2 * n}) g`);
  const appealing = Math.max(Math.floor(n / 10), REPORTED_LAST - REPORTED_FIRST + 1);
  await sql.unsafe(`insert into couples (id, partner1_id, partner2_id, couple_name, status, is_visible, created_at)
    select md5('c' || g)::uuid, md5('u' || (2 * g - 1))::uuid, md5('u' || (2 * g))::uuid, 'Couple ' || g,
      case when g between ${REPORTED_FIRST} and ${REPORTED_FIRST + appealing - 1} then 'suspended' else 'active' end, true,
      now() - (1 + random() * 364) * interval '1 day'
    from generate_series(1, ${n}) g`);
  await sql.unsafe(`insert into conversations (id, couple_low_id, couple_high_id)
    select md5('v' || g)::uuid, least(md5('c' || (2 * g - 1))::uuid, md5('c' || (2 * g))::uuid),
      greatest(md5('c' || (2 * g - 1))::uuid, md5('c' || (2 * g))::uuid)
    from generate_series(1, ${pairs}) g`);
  // Message k of conversation g: by couple 2g-1 when k is odd, else 2g.
  await sql.unsafe(`insert into messages (id, conversation_id, author_user_id, author_couple_id, body, created_at)
    select md5('m' || g || ':' || k)::uuid, md5('v' || g)::uuid,
      md5('u' || (2 * (2 * g - k % 2) - 1))::uuid, md5('c' || (2 * g - k % 2))::uuid,
      'Message ' || k, now() - (30 - k) * interval '1 day'
    from generate_series(1, ${pairs}) g, generate_series(1, 4) k`);
  await sql.unsafe(`insert into connection_requests (from_couple_id, to_couple_id, sent_by_user_id, note, status, created_at, expires_at)
    select md5('c' || g)::uuid, md5('c' || (1 + (g + k * 7) % ${n}))::uuid, md5('u' || (2 * g - 1))::uuid, 'Hello ' || k,
      (case when random() < 0.3 then 'accepted' when random() < 0.5 then 'declined' else 'pending' end)::connection_status,
      now() - random() * interval '60 days', now() + interval '30 days'
    from generate_series(2, ${n}) g, generate_series(1, 3) k where 1 + (g + k * 7) % ${n} <> g`);
  // The sender: ten hellos with one note today, to couples 2..11.
  await sql.unsafe(`insert into connection_requests (from_couple_id, to_couple_id, sent_by_user_id, note, created_at, expires_at)
    select md5('c1')::uuid, md5('c' || (1 + k))::uuid, md5('u1')::uuid, 'Join our club ' || k, now() - k * interval '10 minutes', now() + interval '30 days'
    from generate_series(1, 10) k`);
  await sql.unsafe(`insert into couple_blocks (blocker_couple_id, blocked_couple_id)
    select md5('c' || g)::uuid, md5('c' || (case when g <= 40 then 1 else 1 + g % ${n} end))::uuid
    from generate_series(2, ${n}, 2) g where (case when g <= 40 then 1 else 1 + g % ${n} end) <> g`);
  // Report g: by person g + 2 (never couple 1's partners); odd g a couple (the first 25: couple 1), even g a message.
  await sql.unsafe(`insert into reports (reporter_user_id, reporter_couple_id, target_type, target_id, reason, created_at)
    select md5('u' || (g + 2))::uuid, md5('c' || ((g + 3) / 2))::uuid,
      (case when g % 2 = 1 then 'couple' else 'message' end)::report_target_type,
      case when g % 2 = 1 then md5('c' || (case when g <= 50 then 1 else 1 + g % ${n} end))::uuid
        else md5('m' || (1 + (g / 2) % ${Math.max(pairs, 1)}) || ':' || (1 + g % 4))::uuid end,
      (case g % 4 when 0 then 'spam' when 1 then 'harassment' when 2 then 'inappropriate' else 'other' end)::report_reason,
      now() - random() * interval '90 days'
    from generate_series(1, ${n}) g`);
  // The burst: report j of post t by person j + 2, the three posts' reports interleaved over the hour.
  const burst = Math.max(Math.floor(n / 100), 1);
  await sql.unsafe(`insert into reports (reporter_user_id, reporter_couple_id, target_type, target_id, reason, note, created_at)
    select md5('u' || (j + 2))::uuid, md5('c' || ((j + 3) / 2))::uuid, 'post', md5('p' || t)::uuid, 'spam',
      case when j % 10 = 0 then 'Spam again ' || j end,
      ${BURST_AT} + (3 * j + t) * interval '1 hour' / ${3 * burst + 3}
    from generate_series(1, ${burst}) j, generate_series(1, 3) t`);
  // Held hellos: `n`, from a tenth of the couples (ten each), over 30 days; and one more from each couple couple 1 reported, the oldest.
  await sql.unsafe(`insert into held_requests (from_couple_id, to_couple_id, sent_by_user_id, note, created_at)
    select md5('c' || (2 + g % ${Math.max(Math.floor(n / 10), 1)}))::uuid, md5('c' || (1 + (g * 7) % ${n}))::uuid, null::uuid,
      'Join our club ' || g, now() - random() * interval '30 days'
    from generate_series(1, ${n}) g
    union all select md5('c' || c)::uuid, md5('c' || (c + 100))::uuid, null, 'Join our club', ${leadingAt("c")}
    from generate_series(${REPORTED_FIRST}, ${REPORTED_LAST}) c`);
  await sql.unsafe(`insert into photo_verifications (user_id, couple_id, status, pose, selfie_key, submitted_at)
    select md5('u' || (2 * g - 1))::uuid, md5('c' || g)::uuid, 'pending', 'three_fingers',
      'verification-selfie/' || md5('s' || g) || '.jpg',
      case when g between ${REPORTED_FIRST} and ${REPORTED_LAST} then ${leadingAt("g")} else now() - random() * interval '30 days' end
    from generate_series(1, ${n}) g`);
  // Appeals: a tenth of the couples (from couple 12, so those couple 1 reported first) suspended, each with an open appeal, over 30 days.
  await sql.unsafe(`insert into couple_sanctions (id, couple_id, kind, reason, ends_at, created_by_user_id, created_at)
    select md5('x' || g)::uuid, md5('c' || g)::uuid, 'suspend', 'harassment', now() + interval '30 days', md5('moderator')::uuid,
      now() - interval '32 days'
    from generate_series(${REPORTED_FIRST}, ${REPORTED_FIRST + appealing - 1}) g`);
  await sql.unsafe(`insert into moderation_appeals (sanction_id, user_id, body, created_at)
    select md5('x' || g)::uuid, md5('u' || (2 * g - 1))::uuid, 'We did nothing wrong ' || g,
      case when g <= ${REPORTED_LAST} then ${leadingAt("g")} else now() - random() * interval '30 days' end
    from generate_series(${REPORTED_FIRST}, ${REPORTED_FIRST + appealing - 1}) g`);
  await fillReportedByCouple1(sql);
  // The blocked list's subject: couple 3 (odd, so it blocked no one above) blocks 500 couples, a minute apart.
  await sql.unsafe(`insert into couple_blocks (blocker_couple_id, blocked_couple_id, created_at)
    select md5('c3')::uuid, md5('c' || (100 + k))::uuid, now() - k * interval '1 minute' from generate_series(1, ${BLOCKER_BLOCKS}) k`);
  await sql.unsafe("vacuum analyze");
}

/**
 * Couple 1's own open reports: ten, against couples 12 to 21 (four of the couples, two of their posts,
 * two replies, two messages), filed before every other report; and a report by another couple of
 * each such couple's other message, as old. Each of those couples also leads the other queues (its
 * selfie, a held hello and an appeal the oldest), so couple 1's moderator's queues leave out real
 * rows before their limit.
 */
async function fillReportedByCouple1(sql: postgres.Sql): Promise<void> {
  await sql.unsafe(`insert into forum_posts (id, author_user_id, couple_id, scope, topic, title, body, created_at)
    select md5('q' || c)::uuid, md5('u' || (2 * c - 1))::uuid, md5('c' || c)::uuid, 'global', 'travel', 'Couple ' || c || ' travels',
      'Join our club', now() - interval '100 days'
    from generate_series(16, 17) c`);
  await sql.unsafe(`insert into forum_replies (id, post_id, author_user_id, couple_id, body, created_at)
    select md5('r' || c)::uuid, md5('q16')::uuid, md5('u' || (2 * c - 1))::uuid, md5('c' || c)::uuid, 'Join our club', now() - interval '100 days'
    from generate_series(18, 19) c`);
  // Message k of conversation g is couple 2g-1's when k is odd, else 2g's (the fill's): couple c's are ((c + 1) / 2, 2 - c % 2 and 4 - c % 2).
  await sql.unsafe(`insert into reports (reporter_user_id, reporter_couple_id, target_type, target_id, reason, created_at)
    select md5('u' || (1 + c % 2))::uuid, md5('c1')::uuid,
      (case when c <= 15 then 'couple' when c <= 17 then 'post' when c <= 19 then 'reply' else 'message' end)::report_target_type,
      (case when c <= 15 then md5('c' || c) when c <= 17 then md5('q' || c) when c <= 19 then md5('r' || c)
        else md5('m' || ((c + 1) / 2) || ':' || (2 - c % 2)) end)::uuid,
      'harassment'::report_reason, now() - interval '95 days' + c * interval '1 minute'
    from generate_series(${REPORTED_FIRST}, ${REPORTED_LAST}) c
    union all select md5('u' || (2 * c + 60))::uuid, md5('c' || (c + 30))::uuid, 'message'::report_target_type,
      md5('m' || ((c + 1) / 2) || ':' || (4 - c % 2))::uuid, 'spam'::report_reason, now() - interval '94 days' + c * interval '1 minute'
    from generate_series(${REPORTED_FIRST}, ${REPORTED_LAST}) c`);
}

type Timed = { name: string; size: number; p50: number; p99: number; samples: number };
/**
 * The queue's pages at the burst: the one from just before it (its three groups' first rows, then
 * a walk past their other reports), and the next one (still within the hour).
 */
type BurstCursors = { at: string; after: string };
type Scale = {
  size: number;
  name: string;
  client: postgres.Sql;
  db: Db;
  recorded: { query: string; params: unknown[] }[];
  burst: BurstCursors;
  /** The blocked list's second page. */
  blocksAfter: string;
};
type Call = { name: string; run: (db: Db, scale: Scale) => Promise<unknown> };

/** When the burst of reports starts, the same at every size (now() is the fill's). */
const BURST_AT = "date_trunc('hour', now()) - interval '45 days'";

const SUBJECT = "a9f7e979-65d6-cf79-9a52-9102a973b8b9"; // md5('c1')::uuid, couple 1 of every scale database

const BLOCKER = "0a3d7213-4fb3-d6c0-24db-4c510bc1605b"; // md5('c3')::uuid
const BLOCKER_BLOCKS = 500;

/** The couples couple 1 has open reports against (`fillReportedByCouple1`), the same at every size. */
const REPORTED_FIRST = 12;
const REPORTED_LAST = 21;
/** When couple `c` of those entered each queue: before its other rows (at most 30 days old), so on its first page. */
const leadingAt = (c: string) => `now() - interval '31 days' + ${c} * interval '1 minute'`;

const CALLS: Call[] = [
  { name: "queue (first page: 20 oldest reported targets)", run: (db) => moderationQueue(db, { coupleId: null }) },
  {
    name: "couple's moderator page",
    run: (db) =>
      Promise.all([coupleRecord(db, SUBJECT, { coupleId: null }), partnerVerifications(db, SUBJECT, { userId: "", coupleId: null })]),
  },
  { name: "held-request check", run: (db) => holdsHello(db, SUBJECT, "join our CLUB 99") },
  { name: "held hellos (first page: 20 oldest couples)", run: (db) => couplesWithHeldHellos(db, { coupleId: null }) },
  { name: "verification queue (20 oldest pending selfies)", run: (db) => pendingVerifications(db, { coupleId: null }) },
  // Its reports, and those of targets it reported, are left out before the queue's limit (`mayJudge`).
  { name: "queue of couple 1's moderator", run: (db) => moderationQueue(db, { coupleId: SUBJECT }) },
  // Couples 12 to 21 (`mayDecideFor`), the oldest of each queue, are left out before its limit.
  { name: "verification queue of couple 1's moderator", run: (db) => pendingVerifications(db, { coupleId: SUBJECT }) },
  { name: "held hellos of couple 1's moderator", run: (db) => couplesWithHeldHellos(db, { coupleId: SUBJECT }) },
  { name: "appeals (first page: 20 oldest open appeals)", run: (db) => openAppeals(db, { coupleId: null }) },
  { name: "appeals of couple 1's moderator", run: (db) => openAppeals(db, { coupleId: SUBJECT }) },
  {
    name: "queue page at the burst (3 posts, n/100 reports each)",
    run: (db, scale) => moderationQueue(db, { coupleId: null }, scale.burst.at),
  },
  { name: "queue page after it", run: (db, scale) => moderationQueue(db, { coupleId: null }, scale.burst.after) },
  { name: "blocked couples (first page of 500)", run: (db) => listBlocks(db, { userId: "", coupleId: BLOCKER }) },
  { name: "blocked couples (the next page)", run: (db, scale) => listBlocks(db, { userId: "", coupleId: BLOCKER }, scale.blocksAfter) },
];

/** The cursors of the pages at the burst: a position just before its first report, and the next page's. */
async function burstCursors(client: postgres.Sql, db: Db): Promise<BurstCursors> {
  const [first] = await client.unsafe(
    `select min(created_at) as at from reports where target_type = 'post' and target_id = md5('p1')::uuid`,
  );
  const at = cursorAfter(QUEUE_CONTEXT, {
    sortKey: new Date(new Date(first!.at as string).getTime() - 1),
    id: "00000000-0000-0000-0000-000000000000",
  });
  const page = await moderationQueue(db, { coupleId: null }, at);
  return { at, after: page.pagination.nextCursor! };
}

/** A scale database of `size`, migrated and filled; its statements recorded for their plans. */
async function scaleDatabase(admin: postgres.Sql, size: number): Promise<Scale> {
  const name = `bench_mod_${size}_${Date.now()}`;
  await admin.unsafe(`create database ${name}`);
  const client = postgres(ADMIN_URL.replace(/\/[^/]*$/, `/${name}`), { max: 4, ...quiet });
  const recorded: Scale["recorded"] = [];
  const db = drizzle(client, { schema, logger: { logQuery: (query, params) => void recorded.push({ query, params }) } });
  try {
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    await migrate(db, { migrationsFolder: "db/migrations" });
    const started = Date.now();
    await fill(client, size);
    console.log(
      `== Moderation at ${size.toLocaleString("en-US")} couples and open reports (filled in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
    const scaleDb = db as unknown as Db;
    const blocksAfter = (await listBlocks(scaleDb, { userId: "", coupleId: BLOCKER })).pagination.nextCursor!;
    return { size, name, client, db: scaleDb, recorded, burst: await burstCursors(client, scaleDb), blocksAfter };
  } catch (error) {
    // Not yet among the scales the section drops at its end.
    await client.end();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    throw error;
  }
}

/** Prints the EXPLAIN (ANALYZE, BUFFERS) of each statement of one call at one scale. */
async function explain(scale: Scale, call: Call): Promise<void> {
  scale.recorded.length = 0;
  await call.run(scale.db, scale);
  console.log(`\n-- ${call.name} at ${scale.size.toLocaleString("en-US")}: the plan of each statement`);
  for (const { query, params } of [...scale.recorded]) {
    const plan = await scale.client.unsafe(`explain (analyze, buffers, costs off, summary on) ${query}`, params as never[]);
    console.log(`  ${query.replace(/\s+/g, " ").slice(0, 160)}`);
    console.log(plan.map((line) => `    ${line["QUERY PLAN"]}`).join("\n"));
  }
}

const summary = (name: string, size: number, times: number[]): Timed => {
  const sorted = [...times].sort((a, b) => a - b);
  return { name, size, p50: percentile(sorted, 50), p99: percentile(sorted, 99), samples: times.length };
};

/**
 * Times each call at every scale back to back in each sample (after 10 warm-up calls each), so
 * the machine's load falls on all sizes alike; and the held-request check's one statement inside
 * Postgres (EXPLAIN ANALYZE's execution time): its own cost without the client's round trip,
 * which on a busy machine is most of its p99.
 */
async function timeAll(scales: Scale[], samples: number): Promise<Timed[]> {
  const results: Timed[] = [];
  for (const call of CALLS) {
    for (const scale of scales) for (let i = 0; i < 10; i++) await call.run(scale.db, scale);
    const times = scales.map(() => [] as number[]);
    for (let i = 0; i < samples; i++)
      for (const [index, scale] of scales.entries()) {
        const t = performance.now();
        await call.run(scale.db, scale);
        times[index]!.push(performance.now() - t);
      }
    scales.forEach((scale, index) => results.push(summary(call.name, scale.size, times[index]!)));
  }
  for (const scale of scales) {
    scale.recorded.length = 0;
    await CALLS[2]!.run(scale.db, scale);
    const { query, params } = scale.recorded.at(-1)!;
    const times: number[] = [];
    for (let i = 0; i < samples; i++) {
      const [row] = await scale.client.unsafe(`explain (analyze, format json) ${query}`, params as never[]);
      times.push((row!["QUERY PLAN"] as { "Execution Time": number }[])[0]!["Execution Time"]);
    }
    results.push(summary("held-request check, in the database", scale.size, times));
  }
  return results;
}

/** Runs the section; a query that fails throws, so it answers 0 failed requests. */
export async function benchModeration(): Promise<number> {
  process.env.AUTH_SECRET ??= "bench-moderation-secret-0123456789abcdef";
  const sizes = (process.env.BENCH_MODERATION_SIZES ?? "1000,100000").split(",").map(Number);
  const samples = Number(process.env.BENCH_MODERATION_SAMPLES ?? 200);
  const admin = postgres(ADMIN_URL, { max: 1, ...quiet });
  const scales: Scale[] = [];
  let results: Timed[] = [];
  try {
    for (const size of sizes) scales.push(await scaleDatabase(admin, size));
    for (const scale of scales) for (const call of CALLS) await explain(scale, call);
    results = await timeAll(scales, samples);
  } finally {
    for (const scale of scales) {
      await scale.client.end();
      await admin.unsafe(`drop database if exists ${scale.name} with (force)`);
    }
    await admin.end();
  }
  printTable(
    ["call", "size", "p50 (ms)", "p99 (ms)", "samples"],
    results.map((r) => [r.name, r.size.toLocaleString("en-US"), r.p50.toFixed(2), r.p99.toFixed(2), String(r.samples)]),
  );
  const smallest = Math.min(...sizes);
  const largest = Math.max(...sizes);
  const ratios = [...new Set(results.map((r) => r.name))].map((name) => {
    const base = results.find((r) => r.name === name && r.size === smallest)!;
    const top = results.find((r) => r.name === name && r.size === largest)!;
    const target = name.startsWith("held-request check")
      ? `p99 < ${HELD_CHECK_TARGET_MS} ms: ${top.p99 < HELD_CHECK_TARGET_MS ? "met" : "missed"}`
      : `${RATIO_TARGET}x: ${top.p50 / base.p50 <= RATIO_TARGET && top.p99 / base.p99 <= RATIO_TARGET ? "met" : "missed"}`;
    return [
      name,
      `${largest.toLocaleString("en-US")} / ${smallest.toLocaleString("en-US")}`,
      (top.p50 / base.p50).toFixed(2),
      (top.p99 / base.p99).toFixed(2),
      target,
    ];
  });
  printTable(["call", "sizes", "p50 ratio", "p99 ratio", "target"], ratios);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchModeration().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
