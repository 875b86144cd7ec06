import "server-only";
import { and, eq, gt, inArray, isNull, ne, or } from "drizzle-orm";
import type { Db } from "@/db/client";
import { connectionRequests, conversations } from "@/db/schema";
import type { ConnectionState } from "@/lib/connections/rules";

/**
 * Where the viewer's couple stands with each of the couples a page shows (for 'Say hello',
 * 'Request sent' or 'Message' on every card and profile): their conversation unless it ended (a
 * couple shown is one that exists and is not blocked either way, so a block since lifted ended
 * it, and either couple may say hello again; the old thread stays in the inbox); else an open
 * request either way (a declined one still reads as sent to the sender until it expires, so a
 * decline is never told from silence); else none. Two queries for the whole list, never one per
 * card: the conversations by pair (conversations_pair_key, one side each) and the requests of
 * the viewer's couple (connection_requests_outgoing_idx, connection_requests_incoming_idx).
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
  const talks = await db
    .select({ id: conversations.id, low: conversations.coupleLowId, high: conversations.coupleHighId })
    .from(conversations)
    .where(
      and(
        isNull(conversations.endedAt),
        or(
          and(eq(conversations.coupleLowId, viewerCoupleId), inArray(conversations.coupleHighId, ids)),
          and(eq(conversations.coupleHighId, viewerCoupleId), inArray(conversations.coupleLowId, ids)),
        ),
      ),
    );
  const asks = await db
    .select({ from: connectionRequests.fromCoupleId, to: connectionRequests.toCoupleId })
    .from(connectionRequests)
    .where(
      and(
        gt(connectionRequests.expiresAt, now),
        or(
          and(
            eq(connectionRequests.fromCoupleId, viewerCoupleId),
            inArray(connectionRequests.toCoupleId, ids),
            ne(connectionRequests.status, "accepted"),
          ),
          and(
            eq(connectionRequests.toCoupleId, viewerCoupleId),
            inArray(connectionRequests.fromCoupleId, ids),
            eq(connectionRequests.status, "pending"),
          ),
        ),
      ),
    );
  for (const ask of asks) {
    const sent = ask.from === viewerCoupleId;
    const other = sent ? ask.to : ask.from;
    // The viewer's own request wins over one they received (both cannot be open at once anyway).
    if (sent || !states.has(other)) states.set(other, { state: sent ? "requested" : "incoming" });
  }
  for (const talk of talks) {
    const other = talk.low === viewerCoupleId ? talk.high : talk.low;
    if (other) states.set(other, { state: "connected", conversationId: talk.id });
  }
  return states;
}

/** No conversation and no open request: 'Say hello'. */
export const NOT_CONNECTED: ConnectionState = { state: "none" };

/** A couple's state from `connectionStates`' answer. */
export const stateOf = (states: ReadonlyMap<string, ConnectionState>, coupleId: string): ConnectionState =>
  states.get(coupleId) ?? NOT_CONNECTED;
