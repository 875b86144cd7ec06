import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { liveEvents, liveSequences, type liveEventKind } from "@/db/schema";

/** What a writer publishes; `unread` rows are added here, never by a writer. */
export type LiveEventKind = Exclude<(typeof liveEventKind.enumValues)[number], "unread">;

export type LiveEvent = {
  userId: string;
  kind: LiveEventKind;
  conversationId?: string;
  /** The message, connection request or notification that changed; for `read`, the reader. */
  subjectId?: string;
};

/** The channel every instance's listener wakes on; the payload is the comma-joined people to wake. */
export const LIVE_CHANNEL = "live_events";

/** Kinds after which a person's unread message or notification counts may differ. */
const CHANGES_COUNTS: ReadonlySet<LiveEventKind> = new Set(["message", "message_deleted", "read", "notification"]);

/** pg_notify refuses payloads of 8,000 bytes or more: ~200 ids per notification. */
const NOTIFY_PAYLOAD_MAX = 7_900;

type Row = typeof liveEvents.$inferInsert;

/** Each person's rows in order, then one `unread` row when any of them changes counts. */
function rowsPerPerson(events: readonly LiveEvent[]): Map<string, Omit<Row, "seq">[]> {
  const perPerson = new Map<string, Omit<Row, "seq">[]>();
  for (const event of events) {
    const rows = perPerson.get(event.userId) ?? [];
    rows.push({ userId: event.userId, kind: event.kind, conversationId: event.conversationId, subjectId: event.subjectId });
    perPerson.set(event.userId, rows);
  }
  for (const [userId, rows] of perPerson) {
    if (rows.some((row) => CHANGES_COUNTS.has(row.kind as LiveEventKind))) rows.push({ userId, kind: "unread" });
  }
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

/**
 * Records live events in the caller's transaction (call it inside the transaction that makes the
 * change, so the events exist exactly when the change does) and wakes every instance's listener
 * at commit (NOTIFY is delivered on commit, never on rollback). Each person's `seq` comes from
 * their live_sequences row, whose lock is held to the end of the transaction: a later event of
 * the same person waits, so it both numbers and commits after this one, and a stream reading
 * "after seq n" never skips a row that commits late. Rows are locked in id order, so two
 * publishers never deadlock. Runs in a savepoint of its own when given a transaction.
 */
export async function publishLive(db: Db, events: readonly LiveEvent[]): Promise<void> {
  if (events.length === 0) return;
  const perPerson = rowsPerPerson(events);
  const people = [...perPerson.keys()].sort();
  await db.transaction(async (tx) => {
    const allocated = await tx
      .insert(liveSequences)
      .values(people.map((userId) => ({ userId, lastSeq: perPerson.get(userId)!.length })))
      .onConflictDoUpdate({ target: liveSequences.userId, set: { lastSeq: sql`${liveSequences.lastSeq} + excluded.last_seq` } })
      .returning({ userId: liveSequences.userId, lastSeq: liveSequences.lastSeq });
    const rows: Row[] = allocated.flatMap(({ userId, lastSeq }) => {
      const own = perPerson.get(userId)!;
      return own.map((row, index) => ({ ...row, seq: lastSeq - own.length + 1 + index }));
    });
    await tx.insert(liveEvents).values(rows);
    for (const payload of notifyPayloads(people)) await tx.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${payload})`);
  });
}
