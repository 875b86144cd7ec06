import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { preparedPer } from "@/db/prepared";
import { connectionRequests, conversations } from "@/db/schema";
import { connectionStateOf, type ConnectionState, type LatestRequest } from "@/lib/connections/rules";
import { requestOfPair } from "./queries";

/** The pair's conversation and latest request as `standingSql` reads them (JSON: times as text). */
type StandingJson = {
  conversation: { id: string; ended: boolean } | null;
  latest: { status: LatestRequest["status"]; createdAt: string; expiresAt: string; toCoupleId: string | null; viewerSent: boolean } | null;
};

/**
 * Where the viewer's couple (`viewer`, SQL of its id; null: no couple, then nothing) stands with the
 * couple `shown` (SQL of its id), as one value: the pair's conversation, ended or not
 * (conversations_pair_key), and its latest request either way (connection_requests_pair_idx, one
 * row): what `sendRequest` reads of the pair (`conversationBetween`, `latestRequestBetween`), so a
 * card and the send agree. Scalar subqueries, so a list's own statement can carry it: Postgres
 * evaluates them for the rows it returns only (after its sort and limit), never for every candidate.
 */
export function standingSql(viewer: SQL, shown: SQL): SQL<StandingJson> {
  const low = sql`least(${viewer}, ${shown})`;
  const high = sql`greatest(${viewer}, ${shown})`;
  return sql<StandingJson>`json_build_object(
    'conversation', (select json_build_object('id', ${conversations.id}, 'ended', ${conversations.endedAt} is not null)
      from ${conversations} where ${viewer} is not null and ${conversations.coupleLowId} = ${low} and ${conversations.coupleHighId} = ${high}),
    'latest', (select json_build_object('status', ${connectionRequests.status}, 'createdAt', ${connectionRequests.createdAt},
        'expiresAt', ${connectionRequests.expiresAt}, 'toCoupleId', ${connectionRequests.toCoupleId},
        'viewerSent', ${connectionRequests.fromCoupleId} = ${viewer})
      from ${connectionRequests} where ${viewer} is not null and ${requestOfPair(low, high)}
      order by ${connectionRequests.createdAt} desc limit 1))`;
}

/** A couple's state from its `standingSql` value, by `connectionStateOf`: the send's own rule. */
export function standingOf(standing: StandingJson | null, now: Date = new Date()): ConnectionState {
  if (!standing) return NOT_CONNECTED;
  const { conversation, latest } = standing;
  return connectionStateOf(
    conversation,
    latest && { ...latest, createdAt: new Date(latest.createdAt), expiresAt: new Date(latest.expiresAt) },
    now,
  );
}

/** For each couple shown, its standing with the viewer's couple (`standingSql`). One prepared statement: the pages that show cards ask it. */
const standings = preparedPer((db) =>
  db
    .select({
      coupleId: sql<string>`shown.id`,
      standing: standingSql(sql`${sql.placeholder("viewer")}::uuid`, sql`shown.id`),
    })
    .from(sql`unnest(${sql.placeholder("ids")}::uuid[]) as shown(id)`)
    .prepare("connection_states"),
);

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
    const state = standingOf(row.standing, now);
    if (state.state !== "none") states.set(row.coupleId, state);
  }
  return states;
}

/** No conversation and no request in the way: 'Say hello'. */
export const NOT_CONNECTED: ConnectionState = { state: "none" };

/** A couple's state from `connectionStates`' answer. */
export const stateOf = (states: ReadonlyMap<string, ConnectionState>, coupleId: string): ConnectionState =>
  states.get(coupleId) ?? NOT_CONNECTED;
