import "server-only";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { preparedPer } from "@/db/prepared";
import { connectionRequests, conversations } from "@/db/schema";
import { connectionStateOf, type ConnectionState } from "@/lib/connections/rules";
import { requestOfPair } from "./queries";

const VIEWER = sql`${sql.placeholder("viewer")}::uuid`;
const SHOWN = sql`${sql.placeholder("ids")}::uuid[]`;
/** A shown couple (the unnest below), and the pair it makes with the viewer's, in the pair index's order. */
const SHOWN_ID = sql`shown.id`;
const LOW = sql`least(${VIEWER}, ${SHOWN_ID})`;
const HIGH = sql`greatest(${VIEWER}, ${SHOWN_ID})`;

/**
 * For each couple shown, the pair's conversation, ended or not (conversations_pair_key), and its
 * latest request either way (connection_requests_pair_idx, one row): what `sendRequest` reads of
 * the pair (`conversationBetween`, `latestRequestBetween`), so a card and the send agree. One
 * prepared statement: the pages that show cards ask it.
 */
const standings = preparedPer((db) => {
  const latest = db
    .select({
      status: connectionRequests.status,
      createdAt: connectionRequests.createdAt,
      expiresAt: connectionRequests.expiresAt,
      toCoupleId: connectionRequests.toCoupleId,
      viewerSent: sql<boolean>`${connectionRequests.fromCoupleId} = ${VIEWER}`.as("viewer_sent"),
    })
    .from(connectionRequests)
    .where(requestOfPair(LOW, HIGH))
    .orderBy(desc(connectionRequests.createdAt))
    .limit(1)
    .as("latest");
  return db
    .select({
      coupleId: sql<string>`${SHOWN_ID}`,
      conversationId: conversations.id,
      endedAt: conversations.endedAt,
      status: latest.status,
      createdAt: latest.createdAt,
      expiresAt: latest.expiresAt,
      toCoupleId: latest.toCoupleId,
      viewerSent: latest.viewerSent,
    })
    .from(sql`unnest(${SHOWN}) as shown(id)`)
    .leftJoin(conversations, and(eq(conversations.coupleLowId, LOW), eq(conversations.coupleHighId, HIGH)))
    .leftJoinLateral(latest, sql`true`)
    .prepare("connection_states");
});

/**
 * Where the viewer's couple stands with each of the couples a page shows (for 'Say hello',
 * 'Request sent' or 'Message' on every card and profile), by `connectionStateOf`: the send's own
 * rule, so 'Say hello' shows exactly where a hello may be sent. A couple shown is one that exists
 * and is not blocked either way, so an ended conversation was ended by a block since lifted, as
 * the send reads it. Only couples with something to show are in the answer (`stateOf` reads the
 * rest as none). One statement for the whole list, never one per card.
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
  for (const row of await standings(db).execute({ viewer: viewerCoupleId, ids })) {
    const conversation = row.conversationId ? { id: row.conversationId, ended: row.endedAt !== null } : null;
    const latest =
      row.status && row.createdAt && row.expiresAt
        ? {
            status: row.status,
            createdAt: row.createdAt,
            expiresAt: row.expiresAt,
            toCoupleId: row.toCoupleId,
            viewerSent: row.viewerSent === true,
          }
        : null;
    const state = connectionStateOf(conversation, latest, now);
    if (state.state !== "none") states.set(row.coupleId, state);
  }
  return states;
}

/** No conversation and no request in the way: 'Say hello'. */
export const NOT_CONNECTED: ConnectionState = { state: "none" };

/** A couple's state from `connectionStates`' answer. */
export const stateOf = (states: ReadonlyMap<string, ConnectionState>, coupleId: string): ConnectionState =>
  states.get(coupleId) ?? NOT_CONNECTED;
