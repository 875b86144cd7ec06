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
import { openSince, senderStatus, type RequestFacts } from "./rules";
import type { RequestBox } from "./schemas";

/** The pair of two couples, in the order the pair index and the conversations' key use. */
export const pairOf = (one: string, other: string): [string, string] => (one < other ? [one, other] : [other, one]);

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
        eq(connectionRequests.toCoupleId, member.coupleId),
        eq(connectionRequests.status, "pending"),
        gt(connectionRequests.createdAt, openSince(now)),
        gt(connectionRequests.expiresAt, now),
        standTogether(connectionRequests.fromCoupleId, connectionRequests.toCoupleId),
        sql`not exists (select 1 from ${connectionApprovals} where ${connectionApprovals.requestId} = ${connectionRequests.id} and ${connectionApprovals.userId} = ${member.userId})`,
      ),
    );
  return row?.count ?? 0;
}

/** The latest request between two couples, either way (connection_requests_pair_idx). */
export async function latestRequestBetween(db: Db, one: string, other: string): Promise<RequestFacts | null> {
  const [low, high] = pairOf(one, other);
  const [row] = await db
    .select({ status: connectionRequests.status, createdAt: connectionRequests.createdAt, expiresAt: connectionRequests.expiresAt })
    .from(connectionRequests)
    .where(
      and(
        sql`least(${connectionRequests.fromCoupleId}, ${connectionRequests.toCoupleId}) = ${low}`,
        sql`greatest(${connectionRequests.fromCoupleId}, ${connectionRequests.toCoupleId}) = ${high}`,
      ),
    )
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

/** How many requests a list shows at most: open ones are few (30 days, 10 a day). */
const LIST_MAX = 100;

/**
 * SQL: a request's other couple's name as `name` reads it, or 'Deleted couple' (as the inbox names
 * one) once the couple it asked went with its last partner's account (`SentFacts`).
 */
const orDeletedCouple = <T extends string | null>(name: SQL<T> | AnyPgColumn): SQL<T> =>
  sql<T>`case when ${connectionRequests.toCoupleId} is null then ${MESSAGE_TEXTS.deletedCouple} else ${name} end`;

/**
 * A box's requests as the couple (a placeholder) reads them; the time is a placeholder too. The
 * outgoing box keeps the hellos to a couple since deleted (left join: `SentFacts`).
 */
function requestsStatement(db: Db, incoming: boolean) {
  const coupleId = placeholderSql("coupleId");
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
        incoming
          ? and(
              eq(connectionRequests.toCoupleId, coupleId),
              eq(connectionRequests.status, "pending"),
              gt(connectionRequests.createdAt, sql.placeholder("openSince")),
              gt(connectionRequests.expiresAt, sql.placeholder("now")),
            )
          : eq(connectionRequests.fromCoupleId, coupleId),
        standTogether(coupleId, other),
      ),
    )
    .orderBy(desc(connectionRequests.createdAt), desc(connectionRequests.id))
    .limit(LIST_MAX);
}

/** Prepared: the Messages screen reads the incoming box on every opening. */
const incomingRequests = preparedPer((db) => requestsStatement(db, true).prepare("requests_incoming"));
const outgoingRequests = preparedPer((db) => requestsStatement(db, false).prepare("requests_outgoing"));

/**
 * `GET /api/connections?box=`: incoming, the open requests to the member's couple with the
 * approvals of the receiving partners it waits on (decidingPartners; connection_requests_incoming_idx);
 * outgoing, the couple's own requests as a sender sees them (a decline reads as pending; one to a
 * couple since deleted, 'closed', to a 'Deleted couple'), newest first (connection_requests_outgoing_idx). Requests between couples that no longer stand together
 * (`standTogether`, lib/safety/visibility.ts) are left out.
 */
export async function listRequests(db: Db, member: ActingCouple, box: "incoming", now?: Date): Promise<RequestItem<RequestCouple>[]>;
export async function listRequests(db: Db, member: ActingCouple, box: RequestBox, now?: Date): Promise<RequestItem[]>;
export async function listRequests(db: Db, member: ActingCouple, box: RequestBox, now: Date = new Date()): Promise<RequestItem[]> {
  const incoming = box === "incoming";
  const rows = await (incoming ? incomingRequests : outgoingRequests)(db).execute({
    coupleId: member.coupleId,
    now: now.toISOString(),
    openSince: openSince(now).toISOString(),
  });
  const approvals = incoming
    ? await approvalsOf(
        db,
        member,
        rows.map((row) => row.id),
      )
    : new Map<string, Map<string, boolean>>();
  // The partners whose approval acceptRequest waits on.
  const partners = incoming && rows.length > 0 ? await firstNames(db, await decidingPartners(db, member.coupleId)) : [];
  return rows.map((row) => ({
    id: row.id,
    status: senderStatus(row, now),
    couple: { id: row.coupleId, coupleName: row.coupleName, profileImageUrl: row.profileImageUrl },
    note: row.note,
    createdAt: row.createdAt.toISOString(),
    approvals: partners.map((partner) => ({ firstName: partner.firstName, accepted: approvals.get(row.id)?.get(partner.id) === true })),
  }));
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
