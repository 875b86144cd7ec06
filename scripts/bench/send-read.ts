/**
 * The `send-read` section of `npm run bench` (BENCH_SECTIONS=send-read): sending a message and
 * marking one read, at once, in the same conversations, over HTTP against the production build on
 * a fresh Postgres database (the collision that once deadlocked: locks taken in opposite orders).
 *
 * BENCH_SEND_READ_CONVERSATIONS (1,500) conversations between twice as many couples, seeded in
 * SQL with one message each. BENCH_SEND_READ_CLIENTS (20) clients for BENCH_SEND_READ_S (60) s:
 * client 2p sends and client 2p+1 marks read, each at its own pace through the same conversations
 * of pair p, so sends keep meeting reads of the same four people. Senders are the two partners of the
 * conversation's second couple in turn, so nobody nears the 30-messages-a-minute limit: every
 * answer other than 201 and 200 is an error. Prints p50, p95 and p99 of each call, throughput and
 * errors by reason, and the deadlocks Postgres counted in the database meanwhile.
 */
import { encode } from "next-auth/jwt";
import postgres from "postgres";
import { csrfTokenFor } from "@/lib/http/request-auth";
import { createSession } from "@/lib/auth/sessions";
import { BROWSER_SESSION_SECONDS } from "@/lib/auth/session-token";
import { openDatabase, type Db } from "@/db/client";
import { onCleanup } from "./cleanup";
import { addressOf, callJson } from "./client";
import { postgresDatabase } from "./databases";
import { md5Uuid } from "./discover";
import { runFor } from "./load";
import { printTable, reportFailures } from "./report";
import { appEnv, ensureBuild, newSecret, startServer, stopGroup } from "./server";
import { percentile } from "./stats";

const CONVERSATIONS = Number(process.env.BENCH_SEND_READ_CONVERSATIONS ?? 1_500);
const CLIENTS = Number(process.env.BENCH_SEND_READ_CLIENTS ?? 20);
const SECONDS = Number(process.env.BENCH_SEND_READ_S ?? 60);
const SESSION_COOKIE = "authjs.session-token";

type Person = { cookie: string; csrf: string };

/** An id the API takes (an RFC 4122 version 4 UUID, as zod checks it), made from a text; `v4Sql` is the same in SQL. */
const v4 = (text: string) => {
  const hex = md5Uuid(text).replaceAll("-", "");
  const fixed = `${hex.slice(0, 12)}4${hex.slice(13, 16)}8${hex.slice(17)}`;
  return fixed.replace(/^(.{8})(.{4})(.{4})(.{4})/, "$1-$2-$3-$4-");
};
const v4Sql = (text: string) => `overlay(overlay(md5(${text}) placing '4' from 13) placing '8' from 17)::uuid`;

/** Conversation c is between couple 2c-1 (its readers: partner 1) and couple 2c (its senders: both partners); one message each. */
async function seed(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`insert into users (id, email, password_hash, first_name, last_name, date_of_birth, email_verified_at, occupation)
      select md5('u' || g)::uuid, 'u' || g || '@bench.test', 'x', 'First' || g, 'Last' || g, date '1990-01-01', now(), 'Bench'
      from generate_series(1, ${4 * CONVERSATIONS}) g`);
    await sql.unsafe(`insert into couples (id, partner1_id, partner2_id, couple_name, status, is_visible, partner_a_verified, partner_b_verified, created_at)
      select md5('c' || g)::uuid, md5('u' || (2 * g - 1))::uuid, md5('u' || (2 * g))::uuid, 'Couple ' || g, 'active', true, true, true, now() - interval '30 days'
      from generate_series(1, ${2 * CONVERSATIONS}) g`);
    await sql.unsafe(`insert into conversations (id, couple_low_id, couple_high_id)
      select ${v4Sql("'v' || c")}, least(md5('c' || (2 * c - 1))::uuid, md5('c' || (2 * c))::uuid), greatest(md5('c' || (2 * c - 1))::uuid, md5('c' || (2 * c))::uuid)
      from generate_series(1, ${CONVERSATIONS}) c`);
    await sql.unsafe(`insert into messages (id, conversation_id, author_user_id, author_couple_id, body)
      select ${v4Sql("'m' || c")}, ${v4Sql("'v' || c")}, md5('u' || (4 * c - 1))::uuid, md5('c' || (2 * c))::uuid, 'Hello'
      from generate_series(1, ${CONVERSATIONS}) c`);
    await sql.unsafe("vacuum analyze");
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** A live browser session and its cookie and CSRF token, as a sign-in would give them. */
async function person(db: Db, userNumber: number, secret: string): Promise<Person> {
  const userId = md5Uuid(`u${userNumber}`);
  const sid = await createSession(db, userId, "browser");
  const claims = { sub: userId, sid, emailVerified: true, profileComplete: true, isPartnerB: userNumber % 2 === 0 };
  const token = await encode({ token: claims, secret, salt: SESSION_COOKIE, maxAge: BROWSER_SESSION_SECONDS });
  return { cookie: `${SESSION_COOKIE}=${token}`, csrf: csrfTokenFor(sid) };
}

const post = (path: string, who: Person, body: unknown, address: string) =>
  callJson(path, address, {
    method: "POST",
    headers: { cookie: who.cookie, "x-csrf-token": who.csrf, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

const row = (name: string, latencies: number[], seconds: number, errors: number) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  const ms = (p: number) => `${percentile(sorted, p).toFixed(1)} ms`;
  return [name, String(latencies.length), `${(latencies.length / seconds).toFixed(0)}/s`, ms(50), ms(95), ms(99), String(errors)];
};

export async function benchSendRead(): Promise<number> {
  const database = await postgresDatabase();
  if (!database) {
    console.log("\n== Send and read at once: skipped (no Postgres answers; the collision is Postgres's row locks)");
    return 0;
  }
  onCleanup(database.drop);
  await ensureBuild();
  // The CSRF token is an HMAC of the session id with AUTH_SECRET: the server gets this process's own.
  const secret = process.env.AUTH_SECRET ?? newSecret();
  process.env.AUTH_SECRET = secret;
  const handle = await openDatabase(database.env.DATABASE_URL);
  const readers: Person[] = [];
  const senders: [Person, Person][] = [];
  try {
    await handle.migrate();
    await seed(database.env.DATABASE_URL!);
    for (let c = 1; c <= CONVERSATIONS; c++) {
      readers.push(await person(handle.db, 4 * c - 3, secret));
      senders.push([await person(handle.db, 4 * c - 1, secret), await person(handle.db, 4 * c, secret)]);
    }
  } finally {
    await handle.close();
  }
  const { child } = await startServer(appEnv(database.env, secret));
  try {
    const deadlocks = async () => {
      const sql = postgres(database.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
      try {
        await new Promise((resolve) => setTimeout(resolve, 1_100)); // statistics reach the counters within a second
        const [found] = await sql<{ n: number }[]>`select deadlocks::int as n from pg_stat_database where datname = current_database()`;
        return found?.n ?? 0;
      } finally {
        await sql.end({ timeout: 5 });
      }
    };
    const before = await deadlocks();
    const pairs = Math.max(1, Math.floor(CLIENTS / 2));
    // Pair p walks conversations p, p + pairs, ...; its sender and reader each keep their own step.
    const steps = Array.from({ length: CLIENTS }, () => 0);
    const last = Array.from({ length: CONVERSATIONS }, (_, c) => v4(`m${c + 1}`));
    const sendLatencies: number[] = [];
    const readLatencies: number[] = [];
    const outcome = await runFor(SECONDS, pairs * 2, async (worker) => {
      const pair = worker >> 1;
      const step = steps[worker]!++;
      const c = (pair + pairs * step) % CONVERSATIONS;
      const conversationId = v4(`v${c + 1}`);
      const started = performance.now();
      if (worker % 2 === 0) {
        const sender = senders[c]![Math.floor(step / Math.ceil(CONVERSATIONS / pairs)) % 2]!;
        const answer = await post(`/api/conversations/${conversationId}/messages`, sender, { body: `Bench ${step}` }, addressOf(worker));
        last[c] = (answer.data as { id: string }).id;
        sendLatencies.push(performance.now() - started);
      } else {
        await post(`/api/conversations/${conversationId}/read`, readers[c]!, { upTo: last[c] }, addressOf(worker));
        readLatencies.push(performance.now() - started);
      }
    });
    const errors = [...outcome.failures.values()].reduce((a, b) => a + b, 0);
    const counted = (await deadlocks()) - before;
    console.log(
      `\n== Send and read at once (BENCH_SECTIONS=send-read): ${pairs} senders and ${pairs} readers in the same ` +
        `conversations for ${SECONDS} s, ${CONVERSATIONS.toLocaleString("en")} conversations (BENCH_SEND_READ_*)`,
    );
    printTable(
      ["call", "answered", "throughput", "p50", "p95", "p99", "errors"],
      [
        row("POST /api/conversations/{id}/messages", sendLatencies, outcome.seconds, 0),
        row("POST /api/conversations/{id}/read", readLatencies, outcome.seconds, 0),
        [
          "both",
          String(outcome.latencies.length),
          `${(outcome.latencies.length / outcome.seconds).toFixed(0)}/s`,
          "",
          "",
          "",
          String(errors),
        ],
      ],
    );
    console.log(
      `Deadlocks Postgres detected meanwhile: ${counted} (each would have been retried; target 0). Errors: ${errors} (target 0).`,
    );
    return reportFailures("send and read at once", outcome) + (counted > 0 ? 1 : 0);
  } finally {
    await stopGroup(child);
  }
}
