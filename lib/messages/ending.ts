import "server-only";
import { and, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { conversations } from "@/db/schema";
import { CONNECTION } from "@/lib/connections/live";
import { publishLive } from "@/lib/live/publish";
import { ofCouple } from "./access";
import { membersOfConversations } from "./queries";

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
  const ids = ended.map((row) => row.id);
  if (ids.length > 0) await tellPeopleOf(tx, inArray(conversations.id, ids));
}

/**
 * A live `connection` row for each member now of each conversation `which` picks, but the person
 * `leaving`: their open threads and inbox load again.
 */
async function tellPeopleOf(tx: Db, which: SQL, leaving?: string): Promise<void> {
  const people = await membersOfConversations(tx, which);
  await publishLive(
    tx,
    people
      .filter(({ userId }) => userId !== leaving)
      .map(({ conversationId, userId }) => ({ userId, kind: CONNECTION, payload: { conversationId } })),
  );
}

/**
 * A couple's partner (`leaving`) went (their account's deletion) and the couple stays with the
 * other: an open thread of its conversations still holds them among the people, their name in the
 * header and under what they read ('Seen by'), which no live row of theirs can take away. The same
 * live `connection` row as an ending tells the people who stay of each conversation still going
 * (an ended one is left as it ended), so each thread loads again as it is now. In the deletion's
 * transaction.
 */
export async function tellPartnerGone(tx: Db, coupleId: string, leaving: string): Promise<void> {
  await tellPeopleOf(tx, and(ofCouple(coupleId), isNull(conversations.endedAt))!, leaving);
}

/** A block either way ends the two couples' conversation. */
export async function endConversationBetween(tx: Db, one: string, other: string): Promise<void> {
  const [low, high] = one < other ? [one, other] : [other, one];
  await endConversations(tx, and(eq(conversations.coupleLowId, low), eq(conversations.coupleHighId, high), isNull(conversations.endedAt))!);
}
