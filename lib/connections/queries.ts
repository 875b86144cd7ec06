import "server-only";
import { and, desc, eq, gt, inArray, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { placeholderSql, preparedPer } from "@/db/prepared";
import { connectionApprovals, connectionRequests, conversations, couples, users } from "@/db/schema";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { decidingPartners } from "@/lib/membership/partner";
import { coupleNameWhileTogether, standTogether } from "@/lib/safety/visibility";
import { MESSAGE_TEXTS } from "@/lib/messages/rules";
import { cursorAfter, readCursor, rowsAfter, type Cursor } from "@/lib/pagination/cursor";
import { keysetPage, type KeysetPage } from "@/lib/pagination/page";
import { CONNECTION_TEXTS, openSince, senderStatus, type RequestFacts } from "./rules";
import type { RequestBox } from "./schemas";

/** The pair of two couples, in the order the pair index and the conversations' key use. */
export const pairOf = (one: string, other: string): [string, string] => (one < other ? [one, other] : [other, one]);

/** What a box's read is given: the couple, the time and when open requests were sent since (SQL values or placeholders). */
type BoxParams = { coupleId: SQL; now: SQL; openSince: SQL };

/** A box's read for a couple at a time, as SQL values. */
const boxAt = (coupleId: string, now: Date): BoxParams => ({
  coupleId: sql`${coupleId}`,
  now: sql`${now.toISOString()}`,
  openSince: sql`${openSince(now).toISOString()}`,
});

/** A box's own rows: the open requests to the couple, or the couple's own (connection_requests_incoming_idx, _outgoing_idx). */
function inBox(incoming: boolean, { coupleId, now, openSince: since }: BoxParams): SQL | undefined {
  return incoming
    ? and(
        eq(connectionRequests.toCoupleId, coupleId),
        eq(connectionRequests.status, "pending"),
        gt(connectionRequests.createdAt, since),
        gt(connectionRequests.expiresAt, now),
      )
    : eq(connectionRequests.fromCoupleId, coupleId);
}

/**
 * The hellos waiting for this partner's answer: open requests to their couple (not expired, the
 * two couples standing together: `standTogether`, lib/safety/visibility.ts) they have not answered
 * yet; the Messages badge counts them beside unread messages (connection_requests_incoming_idx,
 * from `openSince` on: a couple's hellos left to expire stay 'pending' there).
 */
export async function awaitingAnswerCount(
  db: Db,
  member: Pick<ActingCouple, "userId" | "coupleId">,
  now: Date = new Date(),
): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(connectionRequests)
    .where(
      and(
        inBox(true, boxAt(member.coupleId, now)),
        standTogether(connectionRequests.fromCoupleId, connectionRequests.toCoupleId),
        sql`not exists (select 1 from ${connectionApprovals} where ${connectionApprovals.requestId} = ${connectionRequests.id} and ${connectionApprovals.userId} = ${member.userId})`,
      ),
    );
  return row?.count ?? 0;
}

/** SQL: a request between the pair whose lower and higher ids these are, either way (connection_requests_pair_idx's expressions). */
export function requestOfPair(low: string | SQL, high: string | SQL): SQL {
  return and(
    sql`least(${connectionRequests.fromCoupleId}, ${connectionRequests.toCoupleId}) = ${low}`,
    sql`greatest(${connectionRequests.fromCoupleId}, ${connectionRequests.toCoupleId}) = ${high}`,
  )!;
}

/** The latest request between two couples, either way (connection_requests_pair_idx). */
export async function latestRequestBetween(db: Db, one: string, other: string): Promise<RequestFacts | null> {
  const [low, high] = pairOf(one, other);
  const [row] = await db
    .select({ status: connectionRequests.status, createdAt: connectionRequests.createdAt, expiresAt: connectionRequests.expiresAt })
    .from(connectionRequests)
    .where(requestOfPair(low, high))
    .orderBy(desc(connectionRequests.createdAt))
    .limit(1);
  return row ?? null;
}

/** The two couples' conversation, ended or not (conversations_pair_key). */
export async function conversationBetween(db: Db, one: string, other: string): Promise<{ id: string; endedAt: Date | null } | null> {
  const [low, high] = pairOf(one, other);
  const [row] = await db
    .select({ id: conversations.id, endedAt: conversations.endedAt })
    .from(conversations)
    .where(and(eq(conversations.coupleLowId, low), eq(conversations.coupleHighId, high)))
    .limit(1);
  return row ?? null;
}

export type RequestCouple = { id: string; coupleName: string; profileImageUrl: string | null };
/** The other couple of a listed request: a sent hello's couple asked is 'Deleted couple', no id, once it went (`SentFacts`). */
type ListedCouple = Omit<RequestCouple, "id"> & { id: string | null };
/** A listed request; an incoming one's couple (its sender's: a hello goes with it) always has its id. */
export type RequestItem<Couple extends ListedCouple = ListedCouple> = {
  id: string;
  status: "pending" | "accepted" | "expired" | "closed";
  couple: Couple;
  note: string;
  createdAt: string;
  approvals: { firstName: string; accepted: boolean }[];
};

/** A page of a box (`GET /api/connections`): keyset pages, as every list reads (lib/pagination/page.ts). */
export const REQUESTS_PAGE = 20;

/**
 * SQL: a request's other couple's name as `name` reads it, or 'Deleted couple' (as the inbox names
 * one) once the couple it asked went with its last partner's account (`SentFacts`).
 */
const orDeletedCouple = <T extends string | null>(name: SQL<T> | AnyPgColumn): SQL<T> =>
  sql<T>`case when ${connectionRequests.toCoupleId} is null then ${MESSAGE_TEXTS.deletedCouple} else ${name} end`;

/**
 * A box's page of requests, newest first, after `after` (a keyset page: `REQUESTS_PAGE + 1` rows,
 * the extra one says there is more). The outgoing box keeps the hellos to a couple since deleted
 * (left join: `SentFacts`).
 */
function requestsStatement(db: Db, incoming: boolean, params: BoxParams, after: Cursor | null) {
  const other = incoming ? connectionRequests.fromCoupleId : connectionRequests.toCoupleId;
  return db
    .select({
      id: connectionRequests.id,
      status: connectionRequests.status,
      createdAt: connectionRequests.createdAt,
      expiresAt: connectionRequests.expiresAt,
      toCoupleId: connectionRequests.toCoupleId,
      note: connectionRequests.note,
      coupleId: couples.id,
      coupleName: orDeletedCouple<string>(couples.coupleName),
      profileImageUrl: couples.profileImageUrl,
    })
    .from(connectionRequests)
    .leftJoin(couples, eq(couples.id, other))
    .where(
      and(
        inBox(incoming, params),
        after ? rowsAfter(connectionRequests.createdAt, connectionRequests.id, after, "desc") : undefined,
        standTogether(params.coupleId, other),
      ),
    )
    .orderBy(desc(connectionRequests.createdAt), desc(connectionRequests.id))
    .limit(REQUESTS_PAGE + 1);
}

const PLACEHOLDERS: BoxParams = {
  coupleId: placeholderSql("coupleId"),
  now: placeholderSql("now"),
  openSince: placeholderSql("openSince"),
};

/** Prepared: the Messages screen reads the incoming box's first page on every opening. */
const incomingRequests = preparedPer((db) => requestsStatement(db, true, PLACEHOLDERS, null).prepare("requests_incoming"));
const outgoingRequests = preparedPer((db) => requestsStatement(db, false, PLACEHOLDERS, null).prepare("requests_outgoing"));

/** A box's cursors work in that box of that couple only (the sort key, a request's time, is on its row: signed). */
const cursorContext = (box: RequestBox, coupleId: string) => `requests:${box}:${coupleId}`;

/**
 * How many open requests wait on the couple, every page (the 'Requests (n)' tab): the incoming
 * box's rows counted (connection_requests_incoming_idx from `openSince` on).
 */
async function openRequestsCount(db: Db, coupleId: string, now: Date): Promise<number> {
  const params = boxAt(coupleId, now);
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(connectionRequests)
    .where(and(inBox(true, params), standTogether(params.coupleId, connectionRequests.fromCoupleId)));
  return row?.count ?? 0;
}

/** The incoming box's page, with how many open requests there are in all. */
export type IncomingPage = KeysetPage<RequestItem<RequestCouple>> & { total: number };

/**
 * `GET /api/connections?box=&cursor=`: a keyset page, newest first. Incoming, the open requests to
 * the member's couple with the approvals of the receiving partners it waits on (decidingPartners;
 * connection_requests_incoming_idx), and `total`, how many are open in all; outgoing, the couple's
 * own requests as a sender sees them (a decline reads as pending; one to a couple since deleted,
 * 'closed', to a 'Deleted couple'; connection_requests_outgoing_idx). Requests between couples
 * that no longer stand together (`standTogether`, lib/safety/visibility.ts) are left out. A cursor
 * that does not verify (forged, another box's or couple's) is 400.
 */
export async function listRequests(db: Db, member: ActingCouple, box: "incoming", cursor?: string, now?: Date): Promise<IncomingPage>;
export async function listRequests(
  db: Db,
  member: ActingCouple,
  box: RequestBox,
  cursor?: string,
  now?: Date,
): Promise<IncomingPage | KeysetPage<RequestItem>>;
export async function listRequests(
  db: Db,
  member: ActingCouple,
  box: RequestBox,
  cursorText?: string,
  now: Date = new Date(),
): Promise<IncomingPage | KeysetPage<RequestItem>> {
  const incoming = box === "incoming";
  const context = cursorContext(box, member.coupleId);
  const after = readCursor(context, cursorText, CONNECTION_TEXTS.cursorInvalid);
  const [rows, total] = await Promise.all([
    after
      ? requestsStatement(db, incoming, boxAt(member.coupleId, now), after)
      : (incoming ? incomingRequests : outgoingRequests)(db).execute({
          coupleId: member.coupleId,
          now: now.toISOString(),
          openSince: openSince(now).toISOString(),
        }),
    incoming ? openRequestsCount(db, member.coupleId, now) : null,
  ]);
  const shown = rows.slice(0, REQUESTS_PAGE);
  const approvals = incoming
    ? await approvalsOf(
        db,
        member,
        shown.map((row) => row.id),
      )
    : new Map<string, Map<string, boolean>>();
  // The partners whose approval acceptRequest waits on.
  const partners = incoming && shown.length > 0 ? await firstNames(db, await decidingPartners(db, member.coupleId)) : [];
  const page = keysetPage(
    rows,
    REQUESTS_PAGE,
    (row): RequestItem => ({
      id: row.id,
      status: senderStatus(row, now),
      couple: { id: row.coupleId, coupleName: row.coupleName, profileImageUrl: row.profileImageUrl },
      note: row.note,
      createdAt: row.createdAt.toISOString(),
      approvals: partners.map((partner) => ({ firstName: partner.firstName, accepted: approvals.get(row.id)?.get(partner.id) === true })),
    }),
    (last) => cursorAfter(context, { sortKey: last.createdAt, id: last.id }),
  );
  return total === null ? page : { ...page, total };
}

async function approvalsOf(db: Db, member: ActingCouple, requestIds: string[]): Promise<Map<string, Map<string, boolean>>> {
  const found = new Map<string, Map<string, boolean>>();
  if (requestIds.length === 0) return found;
  const rows = await db
    .select({ requestId: connectionApprovals.requestId, userId: connectionApprovals.userId, accepted: connectionApprovals.accepted })
    .from(connectionApprovals)
    .where(and(inArray(connectionApprovals.requestId, requestIds), inArray(connectionApprovals.userId, member.partnerIds)));
  for (const row of rows) found.set(row.requestId, (found.get(row.requestId) ?? new Map()).set(row.userId, row.accepted));
  return found;
}

/** People's first names, in the order of the ids given. */
export async function firstNames(db: Db, ids: readonly string[]): Promise<{ id: string; firstName: string }[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: users.id, firstName: users.firstName })
    .from(users)
    .where(inArray(users.id, [...ids]));
  return ids.flatMap((id) => rows.filter((row) => row.id === id));
}

/**
 * The requests the person sent from their couple, newest first (the data export): to whom, their
 * note, when, and the status as a sender sees it (a decline reads as pending, then expired). The
 * other couple is named only while the two stand together (`standTogether`), as the requests list
 * shows it: one blocked either way or suspended since is not; one since deleted is 'Deleted couple'.
 */
export async function requestsSentBy(db: Db, userId: string, coupleId: string | null) {
  if (!coupleId) return [];
  const rows = await db
    .select({
      id: connectionRequests.id,
      toCoupleName: orDeletedCouple(coupleNameWhileTogether(connectionRequests.fromCoupleId, connectionRequests.toCoupleId)),
      note: connectionRequests.note,
      status: connectionRequests.status,
      createdAt: connectionRequests.createdAt,
      expiresAt: connectionRequests.expiresAt,
      toCoupleId: connectionRequests.toCoupleId,
    })
    .from(connectionRequests)
    .leftJoin(couples, eq(couples.id, connectionRequests.toCoupleId))
    .where(and(eq(connectionRequests.fromCoupleId, coupleId), eq(connectionRequests.sentByUserId, userId)))
    .orderBy(desc(connectionRequests.createdAt));
  return rows.map(({ expiresAt, toCoupleId, ...row }) => ({ ...row, status: senderStatus({ ...row, expiresAt, toCoupleId }) }));
}

/** The person's own answers to hellos their couple received, newest first (the data export): whose hello (named as above), yes or no, when. */
export async function answersBy(db: Db, userId: string) {
  return db
    .select({
      fromCoupleName: coupleNameWhileTogether(connectionRequests.toCoupleId, connectionRequests.fromCoupleId),
      accepted: connectionApprovals.accepted,
      answeredAt: connectionApprovals.createdAt,
    })
    .from(connectionApprovals)
    .innerJoin(connectionRequests, eq(connectionRequests.id, connectionApprovals.requestId))
    .innerJoin(couples, eq(couples.id, connectionRequests.fromCoupleId))
    .where(eq(connectionApprovals.userId, userId))
    .orderBy(desc(connectionApprovals.createdAt));
}
