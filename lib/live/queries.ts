import "server-only";
import { and, asc, eq, gt, inArray, min, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { liveEvents, liveSequences } from "@/db/schema";
import { readCounts, renderContext, UNREAD, type LiveRegistry, type LiveRow } from "./kinds";

/** What the stream sends: a row's `seq` as its id, its event name, what it says now. */
export type Outgoing = { id: number; event: string; data: unknown };

/** How many rows one read takes: a long gap is sent in pages, never read whole into memory. */
export const PAGE_ROWS = 500;

/**
 * Where a person's history stands: the last `seq` allocated (0: none yet) and the oldest row still
 * kept. One statement, so one snapshot: read apart, a row committed between the two reads (the
 * oldest read before it, the last after) would pass for rows trimmed, and a resume that missed
 * nothing would be told to `reset`.
 */
export async function historyBounds(db: Db, userId: string): Promise<{ last: number; oldest: number | null }> {
  const last = db.select({ last: liveSequences.lastSeq }).from(liveSequences).where(eq(liveSequences.userId, userId));
  const oldest = db
    .select({ oldest: min(liveEvents.seq) })
    .from(liveEvents)
    .where(eq(liveEvents.userId, userId));
  const [bounds] = await db
    .select({ last: sql<number>`coalesce((${last}), 0)`.mapWith(Number), oldest: sql<number | null>`(${oldest})`.mapWith(Number) })
    .from(sql`(select 1) as one`);
  return { last: bounds!.last, oldest: bounds!.oldest };
}

/** Each person's newest `seq` (0 without any): what a heartbeat compares its streams' positions with. */
export async function newestSeqs(db: Db, userIds: readonly string[]): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: liveSequences.userId, last: liveSequences.lastSeq })
    .from(liveSequences)
    .where(inArray(liveSequences.userId, [...userIds]));
  return new Map(rows.map((row) => [row.userId, row.last]));
}

/** The person's rows after `after`, in order, one page (the primary key's order: user, seq). */
export const rowsAfter = (db: Db, userId: string, after: number): Promise<LiveRow[]> =>
  db
    .select({ seq: liveEvents.seq, kind: liveEvents.kind, subjectId: liveEvents.subjectId, payload: liveEvents.payload })
    .from(liveEvents)
    .where(and(eq(liveEvents.userId, userId), gt(liveEvents.seq, after)))
    .orderBy(asc(liveEvents.seq))
    .limit(PAGE_ROWS);

/** The person's counts now (the registered counts: the bell's, the message badge's), the stream's first event. */
export const unreadCounts = (db: Db, userId: string, registry: LiveRegistry): Promise<Record<string, number>> =>
  readCounts(renderContext(db, userId), registry.counts);

/**
 * What a page of rows says, read when it is sent, each kind by its registered render, so what is
 * sent is what the person may see now (a message of a conversation they may no longer read is
 * not sent, nor a blocked couple's notification counted or shown). Rows that say nothing now, and
 * rows of a kind no longer registered, are skipped; the stream's position still moves past them.
 * Of a `latestOnly` kind (and `unread`) only the page's last row is sent: earlier ones would carry
 * the very same value.
 */
export async function render(db: Db, userId: string, rows: readonly LiveRow[], registry: LiveRegistry): Promise<Outgoing[]> {
  const latestOnly = (kind: string) => kind === UNREAD || registry.kinds.get(kind)?.latestOnly === true;
  const lastOfKind = new Map<string, number>();
  for (const row of rows) if (latestOnly(row.kind)) lastOfKind.set(row.kind, row.seq);
  const sent = rows.filter((row) => !latestOnly(row.kind) || lastOfKind.get(row.kind) === row.seq);
  const context = renderContext(db, userId);
  const byKind = Map.groupBy(sent, (row) => row.kind);
  const data = new Map<number, unknown>();
  await Promise.all(
    [...byKind].map(async ([name, ofKind]) => {
      const values =
        name === UNREAD ? [await readCounts(context, registry.counts)] : ((await registry.kinds.get(name)?.render(context, ofKind)) ?? []);
      ofKind.forEach((row, index) => data.set(row.seq, values[index]));
    }),
  );
  return sent.flatMap((row) => {
    const value = data.get(row.seq);
    const event = row.kind === UNREAD ? UNREAD : registry.kinds.get(row.kind)?.event;
    return value === undefined || event === undefined ? [] : [{ id: row.seq, event, data: value }];
  });
}
