import "server-only";
import { and, eq, isNull, ne, or, sql } from "drizzle-orm";
import { unionAll } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { preparedPer } from "@/db/prepared";
import { connectionRequests, conversations } from "@/db/schema";
import { openSince, type ConnectionState } from "@/lib/connections/rules";

const VIEWER = sql`${sql.placeholder("viewer")}::uuid`;
const SHOWN = sql`${sql.placeholder("ids")}::uuid[]`;
const NOW = sql`${sql.placeholder("now")}::timestamptz`;
/** `openSince(now)`: open requests were sent since, and the indexes are read from there (expired ones stay in them). */
const OPEN_SINCE = sql`${sql.placeholder("openSince")}::timestamptz`;

/**
 * The conversations of the viewer's couple with the couples shown, unless ended (by pair:
 * conversations_pair_key, one side each), and the open requests either way (the viewer's own
 * unless accepted, one received while pending: connection_requests_outgoing_idx and
 * connection_requests_incoming_idx). One prepared statement: the pages that show cards ask it.
 * `first`, `second`: a conversation's two couples, a request's sender and receiver.
 */
const standings = preparedPer((db) =>
  unionAll(
    db
      .select({
        conversationId: sql<string | null>`${conversations.id}`,
        first: conversations.coupleLowId,
        second: conversations.coupleHighId,
      })
      .from(conversations)
      .where(
        and(
          isNull(conversations.endedAt),
          or(
            and(eq(conversations.coupleLowId, VIEWER), sql`${conversations.coupleHighId} = any(${SHOWN})`),
            and(eq(conversations.coupleHighId, VIEWER), sql`${conversations.coupleLowId} = any(${SHOWN})`),
          ),
        ),
      ),
    db
      .select({
        conversationId: sql<string | null>`null::uuid`,
        first: connectionRequests.fromCoupleId,
        second: connectionRequests.toCoupleId,
      })
      .from(connectionRequests)
      .where(
        and(
          sql`${connectionRequests.createdAt} > ${OPEN_SINCE}`,
          sql`${connectionRequests.expiresAt} > ${NOW}`,
          or(
            and(
              eq(connectionRequests.fromCoupleId, VIEWER),
              sql`${connectionRequests.toCoupleId} = any(${SHOWN})`,
              ne(connectionRequests.status, "accepted"),
            ),
            and(
              eq(connectionRequests.toCoupleId, VIEWER),
              sql`${connectionRequests.fromCoupleId} = any(${SHOWN})`,
              eq(connectionRequests.status, "pending"),
            ),
          ),
        ),
      ),
  ).prepare("connection_states"),
);

/**
 * Where the viewer's couple stands with each of the couples a page shows (for 'Say hello',
 * 'Request sent' or 'Message' on every card and profile): their conversation unless it ended (a
 * couple shown is one that exists and is not blocked either way, so a block since lifted ended
 * it, and either couple may say hello again; the old thread stays in the inbox); else an open
 * request either way (a declined one still reads as sent to the sender until it expires, so a
 * decline is never told from silence); else none. One statement for the whole list, never one
 * per card.
 */
export async function connectionStates(
  db: Db,
  viewerCoupleId: string | null,
  coupleIds: readonly string[],
  now: Date = new Date(),
): Promise<Map<string, ConnectionState>> {
  const states = new Map<string, ConnectionState>();
  const ids = [...new Set(coupleIds)].filter((id) => id !== viewerCoupleId);
  if (!viewerCoupleId || ids.length === 0) return states;
  const rows = await standings(db).execute({
    viewer: viewerCoupleId,
    ids,
    now: now.toISOString(),
    openSince: openSince(now).toISOString(),
  });
  // Requests first: a conversation wins over any request.
  for (const ask of rows.filter((row) => row.conversationId === null)) {
    const sent = ask.first === viewerCoupleId;
    const other = sent ? ask.second : ask.first;
    // The viewer's own request wins over one they received (both cannot be open at once anyway).
    if (other && (sent || !states.has(other))) states.set(other, { state: sent ? "requested" : "incoming" });
  }
  for (const talk of rows) {
    if (talk.conversationId === null) continue;
    const other = talk.first === viewerCoupleId ? talk.second : talk.first;
    if (other) states.set(other, { state: "connected", conversationId: talk.conversationId });
  }
  return states;
}

/** No conversation and no open request: 'Say hello'. */
export const NOT_CONNECTED: ConnectionState = { state: "none" };

/** A couple's state from `connectionStates`' answer. */
export const stateOf = (states: ReadonlyMap<string, ConnectionState>, coupleId: string): ConnectionState =>
  states.get(coupleId) ?? NOT_CONNECTED;
