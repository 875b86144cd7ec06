/**
 * The export section of `npm run bench` (BENCH_SECTIONS=export), also runnable alone:
 * `npx tsx --expose-gc --conditions react-server scripts/bench/export.ts`.
 *
 * 'Download my data' (GET /api/account/export) of one person with a long history, in process:
 * `streamAccountExport`, the domain function the route answers with, its body read to the end as
 * a client would. Two fresh `bench_export_<messages>_<timestamp>` databases on the local Postgres,
 * each holding one person's history, bulk-inserted with generate_series: BENCH_EXPORT_MESSAGES
 * (200,000) messages of theirs over CONVERSATIONS conversations (every hundredth with a photo),
 * BENCH_EXPORT_POSTS (2,000) forum posts, BENCH_EXPORT_REPLIES (20,000) replies and
 * BENCH_EXPORT_NOTIFICATIONS (50,000) notifications; the second database a tenth of each, so the
 * two rows say whether memory grows with the history. BENCH_EXPORT_ROUNDS (3) exports of each,
 * the two sizes in turn (at most the export's hourly limit a person).
 *
 * Each export's figures: rows (the objects of the document's top-level lists, counted in the
 * bytes as they pass), bytes, wall time (from the call to the stream's end), throughput, and the
 * peak heap growth: process.memoryUsage().heapUsed sampled at every chunk read and every
 * millisecond the loop is free, against the heap before the call, after a full collection when
 * the bench runs with --expose-gc (`npm run bench` does); without it the baseline holds garbage
 * and the line says so. Target (the export's memory is bounded: one page of EXPORT_PAGE_SIZE rows
 * held, not the list): peak heap growth under HEAP_TARGET_MB at both sizes.
 */
import { performance } from "node:perf_hooks";
import postgres from "postgres";
import { EXPORT_PAGE_SIZE, streamAccountExport } from "@/lib/account/export";
import { LIMITS } from "@/lib/rate-limit";
import { ADMIN_URL } from "./config";
import { md5Uuid } from "./discover";
import { scaleDatabase } from "./databases";
import { printTable } from "./report";
import { median } from "./stats";

/** The export holds a page, never the history: its heap growth stays under this at any size. */
const HEAP_TARGET_MB = 32;
/** The person's conversations, one with each of as many other couples. */
const CONVERSATIONS = 20;
const MB = 1024 * 1024;

const positiveInt = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number`);
  return value;
};

type History = { messages: number; posts: number; replies: number; notifications: number };

const longListRows = (h: History) => h.messages + h.posts + h.replies + h.notifications;

/** The person (u1, couple 1) and CONVERSATIONS other couples, and the person's history `h`. */
async function fill(sql: postgres.Sql, h: History): Promise<void> {
  const couples = CONVERSATIONS + 1;
  await sql.unsafe(`insert into users (id, email, password_hash, first_name, last_name, date_of_birth, email_verified_at)
    select md5('u' || g)::uuid, 'u' || g || '@bench.test', 'x', 'First' || g, 'Last' || g, date '1990-01-01', now()
    from generate_series(1, ${2 * couples}) g`);
  await sql.unsafe(`insert into couples (id, partner1_id, partner2_id, couple_name, status, is_visible, partner_a_verified, partner_b_verified, created_at)
    select md5('c' || g)::uuid, md5('u' || (2 * g - 1))::uuid, md5('u' || (2 * g))::uuid, 'Couple ' || g, 'active', true, true, true, now() - interval '3 years'
    from generate_series(1, ${couples}) g`);
  // Conversation c is between couple 1 and couple c + 1.
  await sql.unsafe(`insert into conversations (id, couple_low_id, couple_high_id, last_activity_at, created_at)
    select md5('v' || c)::uuid, least(md5('c1')::uuid, md5('c' || (c + 1))::uuid), greatest(md5('c1')::uuid, md5('c' || (c + 1))::uuid),
      now(), now() - interval '3 years'
    from generate_series(1, ${CONVERSATIONS}) c`);
  // Message g: in conversation 1 + g % CONVERSATIONS, one to ten sentences, every hundredth a photo, spread over the years.
  await sql.unsafe(`insert into messages (conversation_id, author_user_id, author_couple_id, body, photo_url, created_at)
    select md5('v' || (1 + g % ${CONVERSATIONS}))::uuid, md5('u1')::uuid, md5('c1')::uuid,
      repeat('Shall we meet on Saturday? ', 1 + g % 10) || g,
      case when g % 100 = 0 then '/uploads/messages/bench-' || g || '.jpg' end,
      now() - interval '3 years' + g * (interval '3 years' / ${h.messages})
    from generate_series(1, ${h.messages}) g`);
  await sql.unsafe(`insert into forum_posts (id, author_user_id, couple_id, scope, topic, title, body, photos, created_at)
    select md5('p' || p)::uuid, md5('u1')::uuid, md5('c1')::uuid, 'global', 'travel', 'Our trip ' || p,
      repeat('We walked along the coast and found a small place to eat. ', 1 + p % 8),
      case when p % 10 = 0 then array['/uploads/forum/bench-' || p || '.jpg'] else '{}' end,
      now() - interval '3 years' + p * (interval '3 years' / ${h.posts})
    from generate_series(1, ${h.posts}) p`);
  // Replies to the person's own posts (in turn), as a thread with its author answering.
  await sql.unsafe(`insert into forum_replies (post_id, author_user_id, couple_id, body, created_at)
    select md5('p' || (1 + r % ${h.posts}))::uuid, md5('u1')::uuid, md5('c1')::uuid, repeat('Thank you, we loved it. ', 1 + r % 5) || r,
      now() - interval '3 years' + r * (interval '3 years' / ${h.replies})
    from generate_series(1, ${h.replies}) r`);
  // Replies and reactions of the other couples, a tenth unread.
  await sql.unsafe(`insert into notifications (user_id, type, title, message, post_id, actor_user_id, actor_couple_id, is_read, created_at)
    select md5('u1')::uuid, 'forum_reply', 'New reply', 'Couple ' || (2 + n % ${CONVERSATIONS}) || ' replied to your post',
      md5('p' || (1 + n % ${h.posts}))::uuid, md5('u' || (2 * (2 + n % ${CONVERSATIONS}) - 1))::uuid, md5('c' || (2 + n % ${CONVERSATIONS}))::uuid,
      n % 10 <> 0, now() - interval '3 years' + n * (interval '3 years' / ${h.notifications})
    from generate_series(1, ${h.notifications}) n`);
  await sql.unsafe("vacuum analyze");
  // The fill's dirty pages written out now, not during the timed exports.
  await sql.unsafe("checkpoint");
}

type Run = { rows: number; bytes: number; ms: number; peakGrowth: number; rssGrowth: number; retained: number };

/**
 * Objects at the depth of a top-level list's items, as jsonStream writes them (JSON.stringify's
 * two-space indent): a line of four spaces and `{`. Counted in the bytes, across chunk boundaries.
 */
const ROW_START = Buffer.from("\n    {");

const occurrences = (haystack: Buffer, needle: Buffer) => {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) count++;
  return count;
};

/** A full collection, when the process runs with --expose-gc (twice: the first's finalizers free more). */
function collect(): void {
  globalThis.gc?.();
  globalThis.gc?.();
}

/**
 * Chunks (64 kB each) between the live-heap export's collections: one every 1 MB written, each
 * mid-page (a page of messages is several chunks). Each takes tens of ms on a loaded machine: a
 * collection whenever the loop is free (each page read) made that export last minutes.
 */
const CHUNKS_A_COLLECTION = 16;

/**
 * One export of `userId`, read to the end, with its figures. With `live` (needs --expose-gc),
 * each heap sample follows a full collection, so it is what the export holds, not its garbage:
 * every CHUNKS_A_COLLECTION chunks.
 */
async function exportOnce(db: Parameters<typeof streamAccountExport>[0], userId: string, live = false): Promise<Run> {
  collect();
  const before = process.memoryUsage();
  let peak = before.heapUsed;
  let peakRss = before.rss;
  const sample = () => {
    if (live) globalThis.gc!();
    const { heapUsed, rss } = process.memoryUsage();
    peak = Math.max(peak, heapUsed);
    peakRss = Math.max(peakRss, rss);
  };
  // Between chunks too, while a page is read from the database (the loop is free).
  const sampler = live ? undefined : setInterval(sample, 1);
  let rows = 0;
  let bytes = 0;
  let chunks = 0;
  let tail = Buffer.alloc(0);
  const started = performance.now();
  try {
    const { body } = await streamAccountExport(db, userId);
    const reader = body.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      if (!live || ++chunks % CHUNKS_A_COLLECTION === 0) sample();
      bytes += chunk.value.byteLength;
      const view = Buffer.from(chunk.value.buffer, chunk.value.byteOffset, chunk.value.byteLength);
      // A row start split between two chunks begins in the last one's tail (shorter than ROW_START).
      const seam = Buffer.concat([tail, view.subarray(0, ROW_START.length - 1)]);
      rows += occurrences(seam, ROW_START) + occurrences(view, ROW_START);
      const kept = view.length >= ROW_START.length - 1 ? view : Buffer.concat([tail, view]);
      tail = Buffer.from(kept.subarray(-(ROW_START.length - 1)));
    }
    if (!tail.toString().trimEnd().endsWith("}")) throw new Error("the export ended without closing its document");
  } finally {
    clearInterval(sampler);
  }
  const ms = performance.now() - started;
  collect();
  return {
    rows,
    bytes,
    ms,
    peakGrowth: peak - before.heapUsed,
    rssGrowth: peakRss - before.rss,
    retained: process.memoryUsage().heapUsed - before.heapUsed,
  };
}

export async function benchExport(): Promise<number> {
  const large: History = {
    messages: positiveInt("BENCH_EXPORT_MESSAGES", 200_000),
    posts: positiveInt("BENCH_EXPORT_POSTS", 2_000),
    replies: positiveInt("BENCH_EXPORT_REPLIES", 20_000),
    notifications: positiveInt("BENCH_EXPORT_NOTIFICATIONS", 50_000),
  };
  const small: History = {
    messages: Math.max(1, Math.round(large.messages / 10)),
    posts: Math.max(1, Math.round(large.posts / 10)),
    replies: Math.max(1, Math.round(large.replies / 10)),
    notifications: Math.max(1, Math.round(large.notifications / 10)),
  };
  const rounds = positiveInt("BENCH_EXPORT_ROUNDS", 3);
  const canCollect = typeof globalThis.gc === "function";
  // Each export spends one of the person's exports an hour (lib/rate-limit.ts): more would be refused.
  const exportsEach = rounds + (canCollect ? 1 : 0);
  if (exportsEach > LIMITS.accountExportPerUser.limit)
    throw new Error(
      `BENCH_EXPORT_ROUNDS must be at most ${LIMITS.accountExportPerUser.limit - 1} (the export's limit an hour, with the live-heap pass)`,
    );
  const histories = [small, large];
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  const databases: Awaited<ReturnType<typeof scaleDatabase>>[] = [];
  try {
    for (const h of histories) databases.push(await scaleDatabase(admin, "export", h.messages, (sql) => fill(sql, h)));
    const userId = md5Uuid("u1");
    console.log(
      `\n== Account export ('Download my data': streamAccountExport read to its end), in process, on Postgres: one person's history of ` +
        histories
          .map(
            (h, i) =>
              `${h.messages.toLocaleString("en")} messages, ${h.posts.toLocaleString("en")} posts, ${h.replies.toLocaleString("en")} replies, ` +
              `${h.notifications.toLocaleString("en")} notifications (filled in ${databases[i]!.fillS.toFixed(1)} s)`,
          )
          .join(" and of ") +
        ` (BENCH_EXPORT_MESSAGES, _POSTS, _REPLIES, _NOTIFICATIONS; the first a tenth); pages of ${EXPORT_PAGE_SIZE} rows; ` +
        `${rounds} timed exports of each, the sizes in turn (BENCH_EXPORT_ROUNDS), then ` +
        (canCollect ? "one each for the live heap" : "no live-heap export: the bench runs without --expose-gc"),
    );
    const timed: Run[][] = histories.map(() => []);
    for (let round = 0; round < rounds; round++)
      for (const [i, database] of databases.entries()) timed[i]!.push(await exportOnce(database.db, userId));
    const live: (Run | null)[] = [];
    for (const database of databases) live.push(canCollect ? await exportOnce(database.db, userId, true) : null);

    const mb = (bytes: number) => (bytes / MB).toFixed(1);
    const table = histories.map((h, i) => {
      const runs = timed[i]!;
      const wallMs = median(runs.map((r) => r.ms));
      const bytes = median(runs.map((r) => r.bytes));
      return [
        `${h.messages.toLocaleString("en")} messages (${longListRows(h).toLocaleString("en")} long-list rows seeded)`,
        [...new Set(runs.map((r) => r.rows))].map((n) => n.toLocaleString("en")).join(" / "),
        mb(bytes),
        (wallMs / 1000).toFixed(2),
        (bytes / MB / (wallMs / 1000)).toFixed(1),
        runs.map((r) => mb(r.peakGrowth)).join(" / "),
        runs.map((r) => mb(r.rssGrowth)).join(" / "),
        live[i] ? mb(live[i].peakGrowth) : "n/a",
        runs.map((r) => mb(r.retained)).join(" / "),
      ];
    });
    printTable(
      [
        "history",
        "rows exported",
        "MB",
        `wall s (median of ${rounds})`,
        "MB/s",
        "heap growth MB, each",
        "RSS growth MB, each",
        `live heap growth MB (target < ${HEAP_TARGET_MB})`,
        "heap kept after, MB",
      ],
      table,
    );
    console.log(
      `  rows exported: the objects of the document's top-level lists (the long lists and the short ones), counted in the bytes; ` +
        `wall time from the call (its rate limit, snapshot and first reads) to the stream's end.\n` +
        `  heap growth: the highest heapUsed of the export (sampled at each 64 kB chunk and each ms the loop is free) less the heap before it, ` +
        (canCollect
          ? "taken after a full collection; it counts garbage not collected yet, so it follows V8's collection schedule, not what the export holds.\n"
          : "NOT collected first (no --expose-gc): the baseline holds garbage too; it counts garbage not collected yet.\n") +
        `  live heap growth: the same export with a full collection before each sample (every ${CHUNKS_A_COLLECTION} chunks of 64 kB, mid-page): what it holds. ` +
        `heap kept after: once the stream ended${canCollect ? " and a full collection" : " (not collected: no --expose-gc)"}.`,
    );
    const verdict = (growth: number) => (growth < HEAP_TARGET_MB * MB ? "met" : "MISSED");
    for (const [i, h] of histories.entries()) {
      const highest = Math.max(...timed[i]!.map((r) => r.peakGrowth));
      const run = live[i];
      console.log(
        // The target is what the export holds; garbage waits for V8's schedule, whatever the export does.
        `  ${h.messages.toLocaleString("en")} messages, target: what the export holds under ${HEAP_TARGET_MB} MB at any history: ` +
          `live heap growth ${run ? `${mb(run.peakGrowth)} MB: ${verdict(run.peakGrowth)}` : "NOT MEASURED (no --expose-gc)"} ` +
          `(heap growth with garbage not yet collected: ${mb(highest)} MB, no target)`,
      );
    }
    const change = (large: number, small: number) =>
      `${mb(large)} MB against ${mb(small)} MB (${large >= small ? "+" : ""}${mb(large - small)} MB)`;
    const [smallHeap, largeHeap] = timed.map((runs) => Math.max(...runs.map((r) => r.peakGrowth))) as [number, number];
    const [smallLive, largeLive] = live;
    console.log(
      `  10x the history: heap growth ${change(largeHeap, smallHeap)}` +
        (smallLive && largeLive ? `; live heap growth ${change(largeLive.peakGrowth, smallLive.peakGrowth)}` : ""),
    );
    return 0;
  } finally {
    for (const database of databases) await database.close();
    await admin.end({ timeout: 5 });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchExport().then(
    (errors) => process.exit(errors ? 1 : 0),
    (error: unknown) => {
      console.error(`export bench failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
