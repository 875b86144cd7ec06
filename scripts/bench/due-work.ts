/**
 * The scheduled work over the messages bench's two databases (README, "Scheduled work"): what one
 * run of `runDueWork` costs at each size, and whether a request ever waits on a lock it holds.
 *
 * Each database gets the live rows a day of traffic leaves: the newest tenth of its messages
 * delivered to the other couple's two partners in the last 20 hours (so their unread e-mails fall
 * due), and as many rows older than the live history's seven days (so the trim has work); and a
 * hundredth of its messages in forum photos and as many message photos uploaded and never used,
 * their ages spread over two days, by people with as many forum posts showing photos (so the
 * sweeps have work; their URLs name no file, so what is timed is the database's part); and a tenth
 * of its messages' count in delivered e-mails, half of them past the outbox's 30 days (so the
 * drop has work beyond one run's 1,000 at the large size). Then
 * BENCH_DUE_RUNS (3) runs one after the other, each timed (it is nearly all database time: the
 * e-mails stay in the outbox, no provider is configured), while requests go on beside it: a
 * message sent and the inbox read by other people, back to back, on the same pool. A monitor
 * connection polls pg_stat_activity every 2 ms for sessions waiting on a lock (`wait_event_type =
 * 'Lock'`) and counts them: the target is none.
 */
import { performance } from "node:perf_hooks";
import type postgres from "postgres";
import type { Db } from "@/db/client";
import { runDueWork, type DueReport } from "@/lib/scheduled/service";
import { inbox } from "@/lib/messages/inbox";
import { sendMessage } from "@/lib/messages/service";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { figures, ms } from "./discover";
import { explainCall } from "./explain";
import { printTable } from "./report";

const RUNS = Number(process.env.BENCH_DUE_RUNS ?? 3);
/** The e-mail waits this long for a read (MESSAGE_EMAIL_DELAY_S's default). */
const DELAY_SECONDS = 900;

export type DueDatabase = { size: number; db: Db; sql: postgres.Sql };

/** Live rows for the newest and for older messages, each to both partners of the couple that did not write it. */
async function fillLiveRows(sql: postgres.Sql, size: number): Promise<number> {
  const recent = Math.max(1, Math.floor(size / 10));
  const delivered = (offset: number, age: string) =>
    sql.unsafe(`insert into live_events (user_id, seq, kind, subject_id, payload, created_at)
      select r.user_id, coalesce(s.last_seq, 0) + row_number() over (partition by r.user_id order by r.id), 'message', r.id,
        jsonb_build_object('conversationId', r.conversation_id::text), r.at
      from (
        select m.id, m.conversation_id, p.user_id, ${age} as at
        from (select id, conversation_id, author_couple_id from messages order by created_at desc offset ${offset} limit ${recent}) m
        join conversations v on v.id = m.conversation_id
        join couples c on c.id = case when v.couple_low_id = m.author_couple_id then v.couple_high_id else v.couple_low_id end
        cross join lateral (values (c.partner1_id), (c.partner2_id)) p(user_id)
      ) r
      left join live_sequences s on s.user_id = r.user_id`);
  await delivered(0, "now() - interval '1 hour' - random() * interval '19 hours'");
  await sql.unsafe(
    `insert into live_sequences (user_id, last_seq) select user_id, max(seq) from live_events group by user_id
     on conflict (user_id) do update set last_seq = excluded.last_seq`,
  );
  await delivered(recent, "now() - interval '8 days' - random() * interval '1 day'");
  await sql.unsafe(
    `insert into live_sequences (user_id, last_seq) select user_id, max(seq) from live_events group by user_id
     on conflict (user_id) do update set last_seq = excluded.last_seq`,
  );
  await sql.unsafe("vacuum analyze live_events");
  const [{ count }] = (await sql.unsafe("select count(*)::int as count from live_events")) as unknown as [{ count: number }];
  return count;
}

/** Uploads never used, in each of the two tables the sweeps read, by the first thousand people. */
async function fillWaitingUploads(sql: postgres.Sql, size: number): Promise<number> {
  const count = Math.max(100, Math.floor(size / 100));
  let inserted = 0;
  for (const table of ["forum_photos", "message_photos"])
    inserted += (
      await sql.unsafe(`insert into ${table} (url, owner_user_id, created_at)
      select '/bench/${table}/' || n || '.jpg', u.id, now() - (n % 48) * interval '1 hour'
      from generate_series(1, ${count}) n
      join (select id, row_number() over (order by id) - 1 as rn from users order by id limit 1000) u on u.rn = n % 1000`)
    ).count;
  // Their posts, each showing a photo of its own: the forum sweep keeps any photo a post of its uploader shows.
  await sql.unsafe(`insert into forum_posts (author_user_id, scope, topic, title, body, photos)
    select u.id, 'global', 'travel', 'A post ' || n, 'Its words ' || n, array['/bench/shown/' || n || '.jpg']
    from generate_series(1, ${count}) n
    join (select id, row_number() over (order by id) - 1 as rn from users order by id limit 1000) u on u.rn = n % 1000`);
  await sql.unsafe("analyze forum_photos, message_photos, forum_posts");
  return inserted;
}

/** Delivered e-mails, every other one past EMAIL_KEPT_DAYS (31 to 61 days old), the rest within them. */
async function fillOutbox(sql: postgres.Sql, size: number): Promise<number> {
  const count = Math.max(1000, Math.floor(size / 10));
  const { count: inserted } = await sql.unsafe(`insert into email_outbox ("to", subject, text, html, delivered_at, created_at)
    select 'bench' || n || '@example.test', 'A subject', 'Its words', '<p>Its words</p>', at, at
    from (select n, now() - (n % 720) * interval '1 hour' - case when n % 2 = 0 then interval '31 days' else interval '0 days' end as at
          from generate_series(1, ${count}) n) e`);
  await sql.unsafe("analyze email_outbox");
  return inserted;
}

/** Polls for sessions of this database waiting on a lock until stopped; answers the most seen at once and the polls made. */
function watchLockWaits(sql: postgres.Sql) {
  let stopped = false;
  let most = 0;
  let polls = 0;
  const watching = (async () => {
    while (!stopped) {
      const [{ waiting }] = (await sql.unsafe(
        `select count(*)::int as waiting from pg_stat_activity
         where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
      )) as unknown as [{ waiting: number }];
      most = Math.max(most, waiting);
      polls++;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  return async () => {
    stopped = true;
    await watching;
    return { most, polls };
  };
}

/** A person writing beside the due work, in a conversation of their own. */
export type Writer = { member: ActingCouple; conversationId: string };

/** Requests beside the run until it ends: each writer in turn sends a message, then reads the inbox. */
async function requestsDuring(db: Db, writers: Writer[], running: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  for (let n = 0; running(); n = (n + 1) % writers.length) {
    const { member, conversationId } = writers[n]!;
    const started = performance.now();
    await sendMessage(db, member, conversationId, {
      body: "A message beside the due work",
      photoUrl: null,
      replyToId: null,
      clientKey: null,
    });
    await inbox(db, member, undefined);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

type RunFigures = { ms: number; report: DueReport; requests: number[]; lockWaits: number; polls: number };

async function timedRuns(database: DueDatabase, writers: Writer[], monitor: postgres.Sql): Promise<RunFigures[]> {
  const runs: RunFigures[] = [];
  for (let i = 0; i < RUNS; i++) {
    const stopWatching = watchLockWaits(monitor);
    let running = true;
    const requests = requestsDuring(database.db, writers, () => running);
    const started = performance.now();
    const report = await runDueWork(database.db, new Date(), DELAY_SECONDS).finally(() => (running = false));
    const took = performance.now() - started;
    const [latencies, waits] = await Promise.all([requests, stopWatching()]);
    runs.push({ ms: took, report, requests: latencies, lockWaits: waits.most, polls: waits.polls });
  }
  return runs;
}

/** Fills both databases' live rows, runs the due work on each, and prints one table. */
export async function benchDueWork(databases: [DueDatabase, DueDatabase], writers: (db: Db) => Writer[]): Promise<void> {
  const filled = [];
  for (const database of databases)
    filled.push({
      database,
      live: await fillLiveRows(database.sql, database.size),
      uploads: await fillWaitingUploads(database.sql, database.size),
      mail: await fillOutbox(database.sql, database.size),
    });
  const table: string[][] = [];
  for (const { database, live, uploads, mail } of filled) {
    const runs = await timedRuns(database, writers(database.db), database.sql);
    for (const [i, run] of runs.entries()) {
      const beside = figures(run.requests);
      table.push([
        `${database.size.toLocaleString("en")} messages, ${live.toLocaleString("en")} live rows, ${uploads.toLocaleString("en")} uploads, ${mail.toLocaleString("en")} e-mails: run ${i + 1}`,
        ms(run.ms),
        String(run.report.emailed),
        String(run.report.pruned),
        String(run.report.swept),
        String(run.report.mailDropped),
        String(run.requests.length),
        run.requests.length ? ms(beside.p99) : "-",
        `${run.lockWaits} (${run.polls} polls)`,
      ]);
    }
  }
  // The one read whose work grows with traffic: the unread e-mails' scan of a day's live rows.
  const large = databases[1];
  await explainCall(
    large.sql,
    `the unread e-mails' scan at ${large.size.toLocaleString("en")} messages`,
    (db) => runDueWork(db, new Date(), DELAY_SECONDS),
    (query) => query.includes('"live_events"') && query.includes("group by"),
  );
  // The sweeps' pick (a delete's; here as a read, so nothing goes): the oldest unused uploads.
  for (const sweep of ["forum photos", "message photos"])
    await explainCall(
      large.sql,
      `the sweep of ${sweep} at ${large.size.toLocaleString("en")} messages`,
      (db) => runDueWork(db, new Date(), DELAY_SECONDS),
      (query) => query.includes(`delete from "${sweep.replace(" ", "_")}"`),
      (query) => query.slice(query.indexOf("(select") + 1, query.lastIndexOf(")")),
    );
  // The outbox's drop: the oldest e-mails past their 30 days, by their age's index.
  await explainCall(
    large.sql,
    `the outbox's drop at ${large.size.toLocaleString("en")} messages`,
    (db) => runDueWork(db, new Date(), DELAY_SECONDS),
    (query) => query.includes('delete from "email_outbox"'),
    (query) => query.slice(query.indexOf("(select") + 1, query.indexOf(" for update")),
  );
  console.log("\n== The scheduled work (runDueWork) over the same databases, requests beside it (target: no request waits on a lock)");
  printTable(
    ["run", "took", "e-mails", "live rows trimmed", "uploads swept", "e-mails dropped", "requests beside", "their p99", "lock waits seen"],
    table,
  );
}
