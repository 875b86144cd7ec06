import "server-only";
import { and, inArray, sql } from "drizzle-orm";
import { connectionRequests, conversations } from "@/db/schema";
import type { LiveFeature, LiveKind, LiveRow, RenderContext } from "@/lib/live/kinds";
import { memberOf } from "@/lib/messages/access";
import { coupleOfUser } from "@/lib/safety/blocks";
import { standTogether } from "@/lib/safety/visibility";
import { viewerStatus } from "./rules";

/**
 * Connections' live kind (registered in lib/registry/live.ts): a connection request that changed
 * (subject: the request), or a conversation that ended or whose people changed (a partner's account
 * deleted, their couple staying: lib/messages/ending.ts), no subject, payload `{ conversationId }`.
 */

/**
 * Connection requests to or from the person's couple, the two couples standing together
 * (`standTogether`, lib/safety/visibility.ts), each as this person sees it (`viewerStatus`: a
 * sender is never told of a decline).
 */
async function visibleRequests({ db, userId }: RenderContext, ids: string[]) {
  if (ids.length === 0) return new Map<string, unknown>();
  const rows = await db
    .select({
      id: connectionRequests.id,
      status: connectionRequests.status,
      createdAt: connectionRequests.createdAt,
      expiresAt: connectionRequests.expiresAt,
      toCoupleId: connectionRequests.toCoupleId,
      viewerSent: sql<boolean>`${connectionRequests.fromCoupleId} = ${coupleOfUser(userId)}`,
      conversationId: connectionRequests.conversationId,
    })
    .from(connectionRequests)
    .where(
      and(
        inArray(connectionRequests.id, ids),
        sql`${coupleOfUser(userId)} in (${connectionRequests.fromCoupleId}, ${connectionRequests.toCoupleId})`,
        standTogether(connectionRequests.fromCoupleId, connectionRequests.toCoupleId),
      ),
    );
  const now = new Date();
  return new Map(
    rows.map((row) => [row.id, { id: row.id, status: viewerStatus(row, row.viewerSent, now), conversationId: row.conversationId }]),
  );
}

/**
 * Conversations of the person's couple, with whether they ended. No block condition here: a block
 * is what ends a conversation, and its four are told, since an ended conversation stays readable
 * to each as it was.
 */
async function visibleConversations({ db, userId }: RenderContext, ids: string[]) {
  if (ids.length === 0) return new Map<string, { conversationId: string; ended: boolean }>();
  const rows = await db
    .select({ conversationId: conversations.id, ended: sql<boolean>`${conversations.endedAt} is not null` })
    .from(conversations)
    .where(and(inArray(conversations.id, ids), memberOf(userId)));
  return new Map(rows.map((row) => [row.conversationId, row]));
}

const unique = (ids: (string | null | undefined)[]) => [...new Set(ids.filter((id): id is string => Boolean(id)))];

export const CONNECTION: LiveKind = {
  name: "connection",
  event: "connection",
  // A hello sent or answered changes the Messages badge (lib/messages/badge.ts).
  changesCounts: true,
  async render(context, rows: readonly LiveRow[]) {
    const requests = rows.filter((row) => row.subjectId);
    const ended = rows.filter((row) => !row.subjectId);
    const [shownRequests, shownConversations] = await Promise.all([
      visibleRequests(context, unique(requests.map((row) => row.subjectId))),
      visibleConversations(context, unique(ended.map((row) => row.payload?.conversationId))),
    ]);
    return rows.map((row) =>
      row.subjectId ? shownRequests.get(row.subjectId) : shownConversations.get(row.payload?.conversationId ?? ""),
    );
  },
};

export const connectionsLive: LiveFeature = { kinds: [CONNECTION] };
