/**
 * The messages section of `npm run bench` (BENCH_SECTIONS=messages), also runnable alone:
 * `npx tsx --conditions react-server scripts/bench/messages.ts`.
 *
 * Two fresh `bench_messages_<size>_<timestamp>` databases on the local Postgres, each with
 * BENCH_MESSAGES_COUPLES (20,000) couples and 2.5 conversations a couple between them, holding
 * BENCH_MESSAGES_SMALL (10,000) and BENCH_MESSAGES_LARGE (1,000,000) messages and
 * BENCH_NOTIFICATIONS_PER_MESSAGE (2) notifications a message, bulk-inserted with generate_series
 * and a connection request for every ten messages, a tenth of them still open (a network that has
 * grown: 100,000 couples, 10M messages, 20M notifications, 1M requests); the viewer's
 * conversation (couples 1 and 2) gets 100 more in both, answers and hearts among them, so its
 * thread has an older page and its extras to read. In
 * process (the server's own functions, no HTTP), each sample times a call on both databases back
 * to back (discover's timePair), so the large/small ratio says how a call grows: p50/p99 of the
 * inbox page, the thread's newest page and the page before it, the hellos waiting and the ones
 * sent (the inbox's 'Requests'), sending a message (each sample by
 * another person, under the 30-a-minute limit), the unread count, the Messages badge, the
 * notifications page and the bell's count, and the current user
 * (loadCurrentUser: what GET /api/v2/auth/me runs) to compare with. Then the EXPLAIN ANALYZE of
 * each read at the large size, and the due work over both (./due-work.ts). The databases are
 * dropped at the end.
 */
import postgres from "postgres";
import type { Db } from "@/db/client";
import { userAccount } from "@/lib/auth/users";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { listRequests } from "@/lib/connections/queries";
import { messagesBadgeCount } from "@/lib/messages/badge";
import { inbox } from "@/lib/messages/inbox";
import { unreadTotal } from "@/lib/messages/queries";
import { threadPage } from "@/lib/messages/thread";
import { listNotifications, unreadCount } from "@/lib/notifications/queries";
import { sendMessage } from "@/lib/messages/service";
import { loadCurrentUser } from "@/lib/profile/queries";
import { ADMIN_URL } from "./config";
import { scaleDatabase } from "./databases";
import { printTable } from "./report";
import { md5Uuid, ms, timePair } from "./discover";
import { benchDueWork, type Writer } from "./due-work";
import { explainCall } from "./explain";

/** The network's size: BENCH_MESSAGES_COUPLES (20,000; 100,000 is a network that has grown) and its conversations. */
const COUPLES = Number(process.env.BENCH_MESSAGES_COUPLES ?? 20_000);
const CONVERSATIONS = Number(process.env.BENCH_MESSAGES_CONVERSATIONS ?? Math.round(COUPLES * 2.5));
const VIEWER_EXTRA = 100;
/** Notifications per message (BENCH_NOTIFICATIONS_PER_MESSAGE, 2): 10M messages make 20M notifications. */
const NOTIFICATIONS_PER_MESSAGE = Number(process.env.BENCH_NOTIFICATIONS_PER_MESSAGE ?? 2);
/** The viewer's own notifications among them, a tenth unread. */
const VIEWER_NOTIFICATIONS = 2_000;
/** Open hellos to the viewer's couple besides its share of the others: a full 'Requests' list. */
const VIEWER_REQUESTS = 150;
/** How many people send messages beside the due work's runs (couples 501 on, so COUPLES must be above 600). */
const BESIDE_DUE_WORK = 100;

/**
 * Conversation c (1-based) is between couple a = 1 + (c-1) % COUPLES and the couple 1, 38 or 75
 * places on (by (c-1) / COUPLES): no pair twice, never a couple with itself.
 */
const coupleA = (c: string) => `(1 + (${c} - 1) % ${COUPLES})`;
const coupleB = (c: string) => `(1 + ((${c} - 1) % ${COUPLES} + 1 + ((${c} - 1) / ${COUPLES}) * 37) % ${COUPLES})`;

async function fill(sql: postgres.Sql, messages: number): Promise<void> {
  await sql.unsafe(`insert into users (id, email, password_hash, first_name, last_name, date_of_birth, email_verified_at)
    select md5('u' || g)::uuid, 'u' || g || '@bench.test', 'x', 'First' || g, 'Last' || g, date '1990-01-01', now()
    from generate_series(1, ${2 * COUPLES}) g`);
  await sql.unsafe(`insert into couples (id, partner1_id, partner2_id, couple_name, status, is_visible, partner_a_verified, partner_b_verified, created_at)
    select md5('c' || g)::uuid, md5('u' || (2 * g - 1))::uuid, md5('u' || (2 * g))::uuid, 'Couple ' || g, 'active', true, true, true, now() - interval '30 days'
    from generate_series(1, ${COUPLES}) g`);
  await sql.unsafe(`insert into conversations (id, couple_low_id, couple_high_id, last_activity_at, created_at)
    select md5('v' || c)::uuid, least(md5('c' || ${coupleA("c")})::uuid, md5('c' || ${coupleB("c")})::uuid),
      greatest(md5('c' || ${coupleA("c")})::uuid, md5('c' || ${coupleB("c")})::uuid), now() - interval '20 days', now() - interval '20 days'
    from generate_series(1, ${CONVERSATIONS}) c`);
  // Message g is in conversation 1 + g % CONVERSATIONS, by one of its four people in turn; the viewer's conversation gets more.
  const insertMessages = (from: string, count: number, conversation: string) =>
    sql.unsafe(`insert into messages (conversation_id, author_user_id, author_couple_id, body, created_at)
      select md5('v' || c)::uuid, md5('u' || (2 * k - 1 + (g / 2) % 2))::uuid, md5('c' || k)::uuid,
        'Bench message ' || g, now() - interval '10 days' + g * interval '1 millisecond'
      from (select g, c, case when g % 2 = 0 then ${coupleA("c")} else ${coupleB("c")} end as k
            from (select g, ${conversation} as c from generate_series(${from}, ${count}) g) s) t`);
  await insertMessages("1", messages, `1 + g % ${CONVERSATIONS}`);
  await insertMessages(String(messages + 1), messages + VIEWER_EXTRA, "1");
  await sql.unsafe(`update conversations v set last_message_id = m.id, last_activity_at = m.created_at
    from (select distinct on (conversation_id) conversation_id, id, created_at from messages order by conversation_id, seq desc) m
    where v.id = m.conversation_id`);
  // The viewer's conversation as a chat is: every fifth message answers the one before, every third has a heart.
  // Elsewhere one message in ten has one (its author's own, enough for the table's size and plans).
  await sql.unsafe(`update messages m set reply_to_id = p.id from messages p
    where m.conversation_id = md5('v1')::uuid and p.conversation_id = m.conversation_id and p.seq = m.seq - 1 and m.seq % 5 = 0`);
  await sql.unsafe(`insert into message_reactions (message_id, user_id, kind)
    select id, md5('u2')::uuid, 'heart' from messages where conversation_id = md5('v1')::uuid and seq % 3 = 0`);
  await sql.unsafe(`insert into message_reactions (message_id, user_id, kind)
    select id, author_user_id, 'heart' from messages where conversation_id <> md5('v1')::uuid and seq % 10 = 0`);
  // Notifications for everyone, the viewer's among them, a tenth unread; one in ten a conversation's row.
  const notifications = messages * NOTIFICATIONS_PER_MESSAGE;
  await sql.unsafe(`insert into notifications (user_id, type, title, message, is_read, created_at, group_key, conversation_id)
    select case when g <= ${VIEWER_NOTIFICATIONS} then md5('u1')::uuid else md5('u' || (1 + g % ${2 * COUPLES}))::uuid end,
      case when g % 10 = 0 then 'message' else 'reply' end, 'Bench notification ' || g, 'Something happened', g % 10 <> 1,
      now() - interval '10 days' + g * interval '1 millisecond',
      case when g % 10 = 0 then 'conversation:' || md5('v' || (1 + g % ${CONVERSATIONS}))::uuid end,
      case when g % 10 = 0 then md5('v' || (1 + g % ${CONVERSATIONS}))::uuid end
    from generate_series(1, ${notifications}) g`);
  // A request for every ten messages: request r from couple 1 + r % COUPLES to one 1-13 places on
  // (by r / COUPLES), a tenth still pending, the rest answered; the viewer's couple gets its share
  // both ways, and VIEWER_REQUESTS more open ones to answer.
  const requests = Math.max(1, Math.round(messages / 10));
  const requestFrom = (r: string) => `(1 + ${r} % ${COUPLES})`;
  const requestTo = (r: string) => `(1 + (${r} % ${COUPLES} + 1 + (${r} / ${COUPLES}) % 13) % ${COUPLES})`;
  const insertRequests = (rows: string, from: (r: string) => string, to: (r: string) => string, pending: string) =>
    sql.unsafe(`insert into connection_requests (from_couple_id, to_couple_id, sent_by_user_id, note, status, created_at, expires_at, answered_at)
      select md5('c' || ${from("r")})::uuid, md5('c' || ${to("r")})::uuid, md5('u' || (2 * ${from("r")} - 1))::uuid, 'Hello from ' || r,
        case when ${pending} then 'pending' else (case when r % 3 = 0 then 'declined' else 'accepted' end) end::connection_status,
        now() - interval '20 days' + r * interval '1 millisecond', now() + interval '10 days',
        case when ${pending} then null else now() - interval '5 days' end
      from generate_series(${rows}) r`);
  await insertRequests(`1, ${requests}`, requestFrom, requestTo, "r % 10 = 0");
  await insertRequests(
    `1, ${VIEWER_REQUESTS}`,
    (r) => `(1 + ${COUPLES} / 2 + ${r})`,
    () => "1",
    "true",
  );
  // Half the people have read their conversations up to some point.
  await sql.unsafe(`insert into conversation_reads (user_id, conversation_id, last_read_seq)
    select md5('u' || (2 * ${coupleA("c")} - 1))::uuid, md5('v' || c)::uuid, ${Math.floor(messages / 2)}
    from generate_series(1, ${CONVERSATIONS}) c`);
  await sql.unsafe("vacuum analyze");
  // The fill's dirty pages written out now, not during the timed samples (the first sample would pay for a million rows).
  await sql.unsafe("checkpoint");
}

export async function benchMessages(): Promise<number> {
  // The inbox signs its cursors.
  process.env.AUTH_SECRET ??= "bench-messages-secret-0123456789abcdef";
  const sizes = [Number(process.env.BENCH_MESSAGES_SMALL ?? 10_000), Number(process.env.BENCH_MESSAGES_LARGE ?? 1_000_000)];
  const samples = Number(process.env.BENCH_MESSAGES_SAMPLES ?? 200);
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  const databases: Awaited<ReturnType<typeof scaleDatabase>>[] = [];
  try {
    for (const size of sizes) databases.push(await scaleDatabase(admin, "messages", size, fill));
    const [small, large] = databases as [(typeof databases)[0], (typeof databases)[0]];
    const dbs: [Db, Db] = [small.db, large.db];
    const viewerId = md5Uuid("u1");
    const viewer = new Map<Db, ActingCouple>();
    for (const db of dbs) viewer.set(db, await actingCouple(db, viewerId));
    const conversationId = md5Uuid("v1");
    const olderThan = new Map<Db, string>();
    for (const db of dbs) olderThan.set(db, (await threadPage(db, viewer.get(db)!, conversationId, { limit: 30 })).data[0]!.id);
    console.log(
      `\n== Messages, in process, on Postgres: ${CONVERSATIONS.toLocaleString("en")} conversations between ${COUPLES.toLocaleString("en")} couples, ` +
        `${NOTIFICATIONS_PER_MESSAGE} notifications a message, ` +
        `${small.size.toLocaleString("en")} messages (filled in ${small.fillS.toFixed(1)} s) and ${large.size.toLocaleString("en")} (${large.fillS.toFixed(1)} s); ` +
        `${samples} samples each, the two sizes interleaved (BENCH_MESSAGES_SAMPLES)`,
    );
    // Warmed up on every call first: the figures are the settled machine's, not the fill's aftermath.
    await timePair(Math.min(50, samples), (db) => loadCurrentUser(db, viewerId), dbs);
    const inboxPage = await timePair(samples, (db) => inbox(db, viewer.get(db)!, undefined), dbs);
    const newest = await timePair(samples, (db) => threadPage(db, viewer.get(db)!, conversationId, { limit: 30 }), dbs);
    const older = await timePair(
      samples,
      (db) => threadPage(db, viewer.get(db)!, conversationId, { limit: 30, before: olderThan.get(db) }),
      dbs,
    );
    const incoming = await timePair(samples, (db) => listRequests(db, viewer.get(db)!, "incoming"), dbs);
    const outgoing = await timePair(samples, (db) => listRequests(db, viewer.get(db)!, "outgoing"), dbs);
    const unread = await timePair(samples, (db) => unreadTotal(db, viewer.get(db)!), dbs);
    const badge = await timePair(samples, (db) => messagesBadgeCount(db, viewer.get(db)!), dbs);
    const notificationsPage = await timePair(samples, (db) => listNotifications(db, viewerId, { limit: 20, offset: 0 }), dbs);
    const bell = await timePair(samples, (db) => unreadCount(db, viewerId), dbs);
    const me = await timePair(samples, (db) => loadCurrentUser(db, viewerId), dbs);
    // Each send by another person (partner A of couple n, in conversation n): no one nears the 30-a-minute limit.
    const senders = new Map<Db, number>(dbs.map((db) => [db, 0]));
    const send = await timePair(
      samples,
      async (db) => {
        const n = senders.get(db)!;
        senders.set(db, n + 1);
        const member = await actingCouple(db, md5Uuid(`u${2 * (2 + n) - 1}`));
        await sendMessage(db, member, md5Uuid(`v${2 + n}`), { body: "A bench message", photoUrl: null, replyToId: null, clientKey: null });
      },
      dbs,
    );
    const rows = [
      ["inbox page (GET /api/conversations)", inboxPage],
      ["thread, newest 30", newest],
      ["thread, 30 before", older],
      ["hellos waiting (GET /api/connections?box=incoming)", incoming],
      ["hellos sent (GET /api/connections?box=outgoing)", outgoing],
      ["send a message (incl. its member read)", send],
      ["unread count", unread],
      ["Messages badge (unread + hellos waiting)", badge],
      ["notifications page (GET /api/notifications)", notificationsPage],
      ["bell's unread count", bell],
      ["current user (/me, loadCurrentUser)", me],
    ] as const;
    const table = rows.map(([label, [a, b]]) => [label, ms(a.p50), ms(a.p99), ms(b.p50), ms(b.p99), `${(b.p50 / a.p50).toFixed(2)}x`]);
    table.push([
      "inbox / me (p50)",
      `${(inboxPage[0].p50 / me[0].p50).toFixed(2)}x`,
      "",
      `${(inboxPage[1].p50 / me[1].p50).toFixed(2)}x`,
      "",
      "",
    ]);
    const header = ["in process", `${small.size} p50`, "p99", `${large.size} p50`, "p99", "large/small p50"];
    printTable(header, table);
    await explainReads(large.sql, large.size, viewer.get(large.db)!, conversationId, olderThan.get(large.db)!);
    // People of couples 501-600 write beside the due work (each in its own conversation, under the per-minute limit).
    const besideDueWork = new Map<Db, Writer[]>();
    for (const db of dbs)
      besideDueWork.set(
        db,
        await Promise.all(
          Array.from({ length: BESIDE_DUE_WORK }, async (_, n) => ({
            member: await actingCouple(db, md5Uuid(`u${2 * (501 + n) - 1}`)),
            conversationId: md5Uuid(`v${501 + n}`),
          })),
        ),
      );
    await benchDueWork([small, large], (db) => besideDueWork.get(db)!);
    return 0;
  } finally {
    for (const database of databases) await database.close();
    await admin.end({ timeout: 5 });
  }
}

/** The plans of the reads at the large size. */
async function explainReads(sql: postgres.Sql, size: number, member: ActingCouple, conversationId: string, before: string): Promise<void> {
  const at = `at ${size.toLocaleString("en")} messages`;
  await explainCall(sql, `inbox page ${at}`, (db) => inbox(db, member, undefined));
  await explainCall(sql, `thread, 30 before ${at}`, (db) => threadPage(db, member, conversationId, { limit: 30, before }));
  await explainCall(sql, `hellos waiting ${at}`, (db) => listRequests(db, member, "incoming"));
  await explainCall(sql, `hellos sent ${at}`, (db) => listRequests(db, member, "outgoing"));
  await explainCall(sql, `unread count ${at}`, (db) => unreadTotal(db, member));
  await explainCall(sql, `Messages badge ${at}`, (db) => messagesBadgeCount(db, member));
  await explainCall(sql, `notifications page ${at}`, (db) => listNotifications(db, member.userId, { limit: 20, offset: 0 }));
  await explainCall(sql, `bell's unread count ${at}`, (db) => unreadCount(db, member.userId));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchMessages().then(
    (errors) => process.exit(errors ? 1 : 0),
    (error: unknown) => {
      console.error(`messages bench failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}

/** A seeded person's acting couple, as the session read hands it to the calls. */
async function actingCouple(db: Db, userId: string): Promise<ActingCouple> {
  const couple = (await userAccount(db, userId))?.couple;
  if (!couple) throw new Error(`the bench's person ${userId} has no couple`);
  return couple;
}
