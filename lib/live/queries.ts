import "server-only";
import { and, asc, eq, gt, min } from "drizzle-orm";
import type { Db } from "@/db/client";
import { liveEvents, liveSequences } from "@/db/schema";
import { latestNotifications, unreadCount } from "@/lib/notifications/service";
import type { StreamEventName } from "./rules";

/** What the stream sends: a row's `seq` as its id, its event name, what it says now. */
export type Outgoing = { id: number; event: StreamEventName; data: unknown };

/** How many rows one read takes: a long gap is sent in pages, never read whole into memory. */
export const PAGE_ROWS = 500;

type Row = Pick<typeof liveEvents.$inferSelect, "seq" | "kind" | "conversationId" | "subjectId">;

/** Where a person's history stands: the last `seq` allocated (0: none yet) and the oldest row still kept. */
export async function historyBounds(db: Db, userId: string): Promise<{ last: number; oldest: number | null }> {
  const [[sequence], [kept]] = await Promise.all([
    db.select({ last: liveSequences.lastSeq }).from(liveSequences).where(eq(liveSequences.userId, userId)),
    db
      .select({ oldest: min(liveEvents.seq) })
      .from(liveEvents)
      .where(eq(liveEvents.userId, userId)),
  ]);
  return { last: sequence?.last ?? 0, oldest: kept?.oldest ?? null };
}

/** The person's rows after `after`, in order, one page (the primary key's order: user, seq). */
export const rowsAfter = (db: Db, userId: string, after: number): Promise<Row[]> =>
  db
    .select({ seq: liveEvents.seq, kind: liveEvents.kind, conversationId: liveEvents.conversationId, subjectId: liveEvents.subjectId })
    .from(liveEvents)
    .where(and(eq(liveEvents.userId, userId), gt(liveEvents.seq, after)))
    .orderBy(asc(liveEvents.seq))
    .limit(PAGE_ROWS);

/** The person's unread counts now (the bell's number; blocked couples' notifications are not counted). */
export async function unreadCounts(db: Db, userId: string): Promise<{ notifications: number }> {
  return { notifications: await unreadCount(db, userId) };
}

/**
 * Kinds whose event carries the person's state now rather than one change: within a page only the
 * last of each is sent (at its own id), since earlier ones would carry the very same value.
 */
const STATE_KINDS = new Set<Row["kind"]>(["notification", "unread"]);

/**
 * What a page of rows says, read when it is sent (so what is sent is what the person may see now:
 * a blocked couple's notification is neither counted nor shown). Rows that say nothing now are
 * skipped, and the stream's position still moves past them.
 */
export async function render(db: Db, userId: string, rows: readonly Row[]): Promise<Outgoing[]> {
  const lastOfKind = new Map<Row["kind"], number>();
  for (const row of rows) if (STATE_KINDS.has(row.kind)) lastOfKind.set(row.kind, row.seq);
  const sent = rows.filter((row) => !STATE_KINDS.has(row.kind) || lastOfKind.get(row.kind) === row.seq);
  const needs = new Set(sent.map((row) => row.kind));
  const [counts, newest] = await Promise.all([
    needs.has("unread") || needs.has("notification") ? unreadCounts(db, userId) : undefined,
    needs.has("notification") ? latestNotifications(db, userId, 1) : undefined,
  ]);
  const out: Outgoing[] = [];
  for (const row of sent) {
    if (row.kind === "unread") out.push({ id: row.seq, event: "unread", data: counts });
    else if (row.kind === "notification")
      out.push({ id: row.seq, event: "notification", data: { unread_count: counts!.notifications, newest: newest![0] ?? null } });
  }
  return out;
}
