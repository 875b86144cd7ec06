import "server-only";
import { and, asc, eq, gt, inArray, min, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { connectionRequests, conversationReads, conversations, liveEvents, liveSequences, messages, users } from "@/db/schema";
import { viewerStatus } from "@/lib/connections/rules";
import { coupleIdOf } from "@/lib/couples/queries";
import { mayReceive, memberOf } from "@/lib/messages/access";
import { messageItem, messageRows, unreadTotal, type MessageItem } from "@/lib/messages/queries";
import { latestNotifications, unreadCount } from "@/lib/notifications/service";
import { coupleOfUser, notBlockedBetween } from "@/lib/safety/blocks";
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

/**
 * The person's unread counts now: the bell's number (blocked couples' notifications are not
 * counted) and the message badge's (0 without a couple).
 */
export async function unreadCounts(db: Db, userId: string): Promise<{ notifications: number; messages: number }> {
  const [notifications, coupleId] = await Promise.all([unreadCount(db, userId), coupleIdOf(db, userId)]);
  return { notifications, messages: coupleId ? await unreadTotal(db, { userId, coupleId }) : 0 };
}

/** The messages the person may read now, as the messaging API shows them (an erased one erased). */
async function visibleMessages(db: Db, userId: string, ids: string[]) {
  if (ids.length === 0) return new Map<string, MessageItem>();
  const rows = await messageRows(db)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(and(inArray(messages.id, ids), mayReceive(userId)));
  return new Map(rows.map((row) => [row.id, messageItem(row)]));
}

/** Read positions in conversations the person may read now, keyed "conversation:reader". */
async function visibleReads(db: Db, userId: string, pairs: { conversationId: string; readerId: string }[]) {
  if (pairs.length === 0) return new Map<string, unknown>();
  const rows = await db
    .select({
      conversationId: conversationReads.conversationId,
      userId: conversationReads.userId,
      firstName: users.firstName,
      lastReadMessageId: conversationReads.lastReadMessageId,
    })
    .from(conversationReads)
    .innerJoin(conversations, eq(conversations.id, conversationReads.conversationId))
    .innerJoin(users, eq(users.id, conversationReads.userId))
    .where(
      and(
        or(
          ...pairs.map((pair) =>
            and(eq(conversationReads.conversationId, pair.conversationId), eq(conversationReads.userId, pair.readerId)),
          ),
        ),
        mayReceive(userId),
      ),
    );
  return new Map(rows.map((row) => [`${row.conversationId}:${row.userId}`, row]));
}

/**
 * Connection requests to or from the person's couple, with no block between the two couples, each
 * as this person sees it (`viewerStatus`: a sender is never told of a decline).
 */
async function visibleRequests(db: Db, userId: string, ids: string[]) {
  if (ids.length === 0) return new Map<string, unknown>();
  const rows = await db
    .select({
      id: connectionRequests.id,
      status: connectionRequests.status,
      createdAt: connectionRequests.createdAt,
      expiresAt: connectionRequests.expiresAt,
      viewerSent: sql<boolean>`${connectionRequests.fromCoupleId} = ${coupleOfUser(userId)}`,
      conversationId: connectionRequests.conversationId,
    })
    .from(connectionRequests)
    .where(
      and(
        inArray(connectionRequests.id, ids),
        sql`${coupleOfUser(userId)} in (${connectionRequests.fromCoupleId}, ${connectionRequests.toCoupleId})`,
        notBlockedBetween(connectionRequests.fromCoupleId, connectionRequests.toCoupleId),
      ),
    );
  const now = new Date();
  return new Map(
    rows.map((row) => [row.id, { id: row.id, status: viewerStatus(row, row.viewerSent, now), conversationId: row.conversationId }]),
  );
}

/**
 * Conversations of the person's couple, with whether they ended (a `connection` row naming a
 * conversation). No block condition here: a block is what ends a conversation, and its four are
 * told, since an ended conversation stays readable to each as it was.
 */
async function visibleConversations(db: Db, userId: string, ids: string[]) {
  if (ids.length === 0) return new Map<string, { conversationId: string; ended: boolean }>();
  const rows = await db
    .select({ conversationId: conversations.id, ended: sql<boolean>`${conversations.endedAt} is not null` })
    .from(conversations)
    .where(and(inArray(conversations.id, ids), memberOf(userId)));
  return new Map(rows.map((row) => [row.conversationId, row]));
}

/**
 * Kinds whose event carries the person's state now rather than one change: within a page only the
 * last of each is sent (at its own id), since earlier ones would carry the very same value.
 */
const STATE_KINDS = new Set<Row["kind"]>(["notification", "unread"]);

const subjects = (rows: readonly Row[], kinds: Row["kind"][]) => [
  ...new Set(rows.filter((row) => kinds.includes(row.kind) && row.subjectId).map((row) => row.subjectId!)),
];

/**
 * What a page of rows says, read when it is sent, so what is sent is what the person may see now:
 * a message of a conversation they may no longer read (they left the couple, a block came
 * between the couples) is not sent, nor is a blocked couple's notification counted or shown.
 * Rows that say nothing now are skipped; the stream's position still moves past them.
 */
export async function render(db: Db, userId: string, rows: readonly Row[]): Promise<Outgoing[]> {
  const lastOfKind = new Map<Row["kind"], number>();
  for (const row of rows) if (STATE_KINDS.has(row.kind)) lastOfKind.set(row.kind, row.seq);
  const sent = rows.filter((row) => !STATE_KINDS.has(row.kind) || lastOfKind.get(row.kind) === row.seq);
  const needs = new Set(sent.map((row) => row.kind));
  const reads = sent.flatMap((row) =>
    row.kind === "read" && row.conversationId && row.subjectId ? [{ conversationId: row.conversationId, readerId: row.subjectId }] : [],
  );
  const changedConversations = [
    ...new Set(sent.filter((row) => row.kind === "connection" && !row.subjectId && row.conversationId).map((row) => row.conversationId!)),
  ];
  const [counts, newest, shownMessages, shownReads, shownRequests, shownConversations] = await Promise.all([
    needs.has("unread") || needs.has("notification") ? unreadCounts(db, userId) : undefined,
    needs.has("notification") ? latestNotifications(db, userId, 1) : undefined,
    visibleMessages(db, userId, subjects(sent, ["message", "message_deleted"])),
    visibleReads(db, userId, reads),
    visibleRequests(db, userId, subjects(sent, ["connection"])),
    visibleConversations(db, userId, changedConversations),
  ]);
  const out: Outgoing[] = [];
  const add = (row: Row, event: StreamEventName, data: unknown) => {
    if (data !== undefined) out.push({ id: row.seq, event, data });
  };
  for (const row of sent) {
    switch (row.kind) {
      case "unread":
        add(row, "unread", counts);
        break;
      case "notification":
        add(row, "notification", { unread_count: counts!.notifications, newest: newest![0] ?? null });
        break;
      case "message":
        add(row, "message", shownMessages.get(row.subjectId ?? ""));
        break;
      case "message_deleted": {
        const shown = shownMessages.get(row.subjectId ?? "") as { id: string; conversationId: string } | undefined;
        add(row, "message-deleted", shown && { id: shown.id, conversationId: shown.conversationId });
        break;
      }
      case "read":
        add(row, "read", shownReads.get(`${row.conversationId}:${row.subjectId}`));
        break;
      case "connection":
        // A request that changed, or (no request named) a conversation that did: it ended.
        add(row, "connection", row.subjectId ? shownRequests.get(row.subjectId) : shownConversations.get(row.conversationId ?? ""));
        break;
    }
  }
  return out;
}
