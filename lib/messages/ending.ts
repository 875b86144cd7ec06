import "server-only";
import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { conversations } from "@/db/schema";
import { CONNECTION } from "@/lib/connections/live";
import { publishLive, type LiveEvent } from "@/lib/live/publish";
import { membersOf } from "./queries";

/**
 * Ending conversations, in the caller's transaction (a block, an account's deletion): each stays
 * readable as it was, without a composer, and no reason is shown. A live `connection` row tells
 * all four, so a thread shows 'This conversation has ended.' and its plans' cards and 'Upcoming'
 * load again. Its own file: the block's write (lib/safety/blocking.ts) needs it without the rest of
 * the messaging service.
 */
export async function endConversations(tx: Db, which: SQL): Promise<void> {
  const ended = await tx
    .update(conversations)
    .set({ endedAt: sql`now()` })
    .where(which)
    .returning({ id: conversations.id });
  const events: LiveEvent[] = [];
  for (const { id } of ended)
    for (const { userId } of await membersOf(tx, id)) events.push({ userId, kind: CONNECTION, payload: { conversationId: id } });
  await publishLive(tx, events);
}

/** A block either way ends the two couples' conversation. */
export async function endConversationBetween(tx: Db, one: string, other: string): Promise<void> {
  const [low, high] = one < other ? [one, other] : [other, one];
  await endConversations(tx, and(eq(conversations.coupleLowId, low), eq(conversations.coupleHighId, high), isNull(conversations.endedAt))!);
}
