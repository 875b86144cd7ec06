import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import { batches } from "@/db/batches";
import type { Db } from "@/db/client";
import { resultRows } from "@/db/result-rows";
import { beforeCommit, transaction } from "@/db/transaction";
import { liveEvents, liveSequences, users } from "@/db/schema";
import { UNREAD, type EphemeralKind, type EphemeralMessage, type LiveKind } from "./kinds";

/** What a writer publishes: one of its feature's kinds; `unread` rows are added here, never by a writer. */
export type LiveEvent = {
  userId: string;
  kind: Pick<LiveKind, "name" | "changesCounts">;
  /** The row that changed (a message, a connection request, a notification; for `read`, the reader). */
  subjectId?: string;
  /** What else the kind names (lib/live/kinds.ts). */
  payload?: Record<string, string>;
};

/**
 * The channel every instance's listener wakes on; the payload is the comma-joined people to wake,
 * or an ephemeral kind's message as JSON (an id never starts with "{").
 */
export const LIVE_CHANNEL = "live_events";

/** pg_notify refuses payloads of 8,000 bytes or more: ~200 ids per notification. */
const NOTIFY_PAYLOAD_MAX = 7_900;

/**
 * Rows per insert: a statement takes at most 65,534 parameters (five a row here), and one publish
 * may hold tens of thousands of rows (an account's erasure: one per message for each other member).
 */
const ROWS_PER_INSERT = 2_000;

type Row = typeof liveEvents.$inferInsert;

/** Each person's rows in order, then one `unread` row when any of them changes counts. */
function rowsPerPerson(events: readonly LiveEvent[]): Map<string, Omit<Row, "seq">[]> {
  const perPerson = new Map<string, Omit<Row, "seq">[]>();
  const countsChanged = new Set<string>();
  for (const event of events) {
    const rows = perPerson.get(event.userId) ?? [];
    rows.push({ userId: event.userId, kind: event.kind.name, subjectId: event.subjectId, payload: event.payload });
    perPerson.set(event.userId, rows);
    if (event.kind.changesCounts) countsChanged.add(event.userId);
  }
  for (const userId of countsChanged) perPerson.get(userId)!.push({ userId, kind: UNREAD });
  return perPerson;
}

/** Comma-joined ids in payloads under pg_notify's limit. */
export function notifyPayloads(userIds: readonly string[]): string[] {
  const payloads: string[] = [];
  let current = "";
  for (const id of userIds) {
    if (current && current.length + 1 + id.length > NOTIFY_PAYLOAD_MAX) {
      payloads.push(current);
      current = "";
    }
    current = current ? `${current},${id}` : id;
  }
  if (current) payloads.push(current);
  return payloads;
}

const PENDING = Symbol("live events");

/**
 * Records live events in the caller's transaction, so the events exist exactly when the change
 * does, and wakes every instance's listener at commit (NOTIFY is delivered on commit, never on
 * rollback). Given the root database, it opens a transaction of its own.
 *
 * Each person's `seq` comes from their live_sequences row, whose lock is held to the end of the
 * transaction: a later event of the same person waits, so it both numbers and commits after this
 * one, and a stream reading "after seq n" never skips a row that commits late. Those locks are
 * taken once per transaction, last, in id order, for everything it published (db/transaction.ts
 * `beforeCommit`): two transactions publishing to the same people never wait on each other in
 * opposite orders, however many times each called this.
 */
export async function publishLive(db: Db, events: readonly LiveEvent[]): Promise<void> {
  if (events.length === 0) return;
  await transaction(db, async (tx) => {
    beforeCommit<LiveEvent[]>(tx, PENDING, () => [], writeLive).push(...events);
  });
}

/**
 * Allocates every person's numbers in one statement (rows locked in id order), writes the rows
 * (ROWS_PER_INSERT a statement), wakes the listeners. A person the transaction deleted (an
 * account's deletion tells the others first) has no history to keep: they are left out. So is one
 * another transaction is deleting: their user row is locked (key share) before it counts, which
 * waits for that deletion and then finds no row, where a plain read would see the row still there
 * and the insert fail on its foreign key (the whole write refused: a message sent as a member goes).
 */
async function writeLive(tx: Db, events: LiveEvent[]): Promise<void> {
  const perPerson = rowsPerPerson(events);
  const wanted = [...perPerson.keys()].sort().map((userId) => sql`(${userId}::uuid, ${perPerson.get(userId)!.length}::bigint)`);
  const result = await tx.execute<{ user_id: string; last_seq: number | string }>(sql`
    insert into ${liveSequences} (user_id, last_seq)
    select wanted.user_id, wanted.count from (values ${sql.join(wanted, sql`, `)}) as wanted (user_id, count)
    where exists (select 1 from ${users} where ${users.id} = wanted.user_id for key share)
    order by wanted.user_id
    on conflict (user_id) do update set last_seq = ${liveSequences}.last_seq + excluded.last_seq
    returning user_id, last_seq`);
  const allocated = resultRows<{ user_id: string; last_seq: number | string }>(result).map((row) => ({
    userId: row.user_id,
    lastSeq: Number(row.last_seq),
  }));
  if (allocated.length === 0) return;
  const people = allocated.map((row) => row.userId);
  const rows: Row[] = allocated.flatMap(({ userId, lastSeq }) => {
    const own = perPerson.get(userId)!;
    return own.map((row, index) => ({ ...row, seq: lastSeq - own.length + 1 + index }));
  });
  for (const batch of batches(rows, ROWS_PER_INSERT)) await tx.insert(liveEvents).values(batch);
  for (const payload of notifyPayloads(people)) await tx.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${payload})`);
}

/**
 * Hands an ephemeral kind's message to every instance's listener now (lib/live/kinds.ts
 * `EphemeralKind`): nothing is written, and a person with no stream open misses it. Given a
 * transaction, it goes at commit.
 */
export async function publishEphemeral(db: Db, kind: Pick<EphemeralKind, "name">, message: Omit<EphemeralMessage, "kind">): Promise<void> {
  if (message.to.length === 0) return;
  const payload: EphemeralMessage = { kind: kind.name, ...message };
  await db.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${JSON.stringify(payload)})`);
}

/**
 * Clears `subjectId` from the rows of `kind` in the histories of `userIds` (a deleted account
 * named as their subject): the rows stay, as a history is cut at a seq, never with holes
 * (lib/live/sse.ts), and a row without its subject is sent as nothing. Read by the primary key's
 * person, so the work is those people's kept history.
 */
export async function forgetSubject(db: Db, userIds: readonly string[], kind: Pick<LiveKind, "name">, subjectId: string): Promise<void> {
  for (const people of batches([...new Set(userIds)], ROWS_PER_INSERT))
    await db
      .update(liveEvents)
      .set({ subjectId: null })
      .where(and(inArray(liveEvents.userId, people), eq(liveEvents.kind, kind.name), eq(liveEvents.subjectId, subjectId)));
}
