import "server-only";
import { and, asc, eq, gt, isNull, lte, ne, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  conversationReads,
  conversations,
  couples,
  liveEvents,
  messageEmails,
  messages,
  notificationPreferences,
  users,
} from "@/db/schema";
import { DEFAULT_PREFERENCES } from "@/lib/notifications/rules";
import { mayReceive } from "@/lib/messages/access";
import { coupleOfUser } from "@/lib/safety/blocks";

/** A person to tell about a conversation's messages they have left unread. */
export type UnreadDue = {
  userId: string;
  email: string;
  conversationId: string;
  /** The messages told about: after this `seq` (read, or in an earlier e-mail), up to `upToSeq`. */
  afterSeq: number;
  upToSeq: number;
};

/** How far back the e-mail looks past the delay: work that stopped for longer than this sends nothing old. */
const LOOKBACK = "1 day";

/** At most this many e-mails per run; the next run takes the rest. */
export const EMAILS_PER_RUN = 200;

/**
 * The people with a message still unread `delaySeconds` after it reached them, per conversation:
 * found from the live rows that delivered it (one per person it reached, by live_events_created_idx),
 * not their own, not erased, after their read position and after what an earlier e-mail covered,
 * in a conversation they may still read, not muted, with e-mail for messages on, and not e-mailed
 * about in the last hour.
 */
export function unreadDue(db: Db, now: Date, delaySeconds: number): Promise<UnreadDue[]> {
  const dueBefore = new Date(now.getTime() - delaySeconds * 1000);
  const read = sql`coalesce(${conversationReads.lastReadSeq}, 0)`;
  const told = sql`coalesce(${messageEmails.upToSeq}, 0)`;
  return db
    .select({
      userId: liveEvents.userId,
      email: users.email,
      conversationId: liveEvents.conversationId,
      // One value per person and conversation: max() only names it for the grouping.
      afterSeq: sql<number>`max(greatest(${read}, ${told}))`.mapWith(Number),
      upToSeq: sql<number>`max(${messages.seq})`.mapWith(Number),
    })
    .from(liveEvents)
    .innerJoin(messages, eq(messages.id, liveEvents.subjectId))
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .innerJoin(users, eq(users.id, liveEvents.userId))
    .leftJoin(
      conversationReads,
      and(eq(conversationReads.userId, liveEvents.userId), eq(conversationReads.conversationId, conversations.id)),
    )
    .leftJoin(messageEmails, and(eq(messageEmails.userId, liveEvents.userId), eq(messageEmails.conversationId, conversations.id)))
    .leftJoin(
      notificationPreferences,
      and(eq(notificationPreferences.userId, liveEvents.userId), eq(notificationPreferences.type, "message")),
    )
    .where(
      and(
        eq(liveEvents.kind, "message"),
        lte(liveEvents.createdAt, dueBefore),
        gt(liveEvents.createdAt, sql`${dueBefore.toISOString()}::timestamptz - ${LOOKBACK}::interval`),
        isNull(messages.deletedAt),
        or(isNull(messages.authorUserId), ne(messages.authorUserId, liveEvents.userId)),
        gt(messages.seq, read),
        gt(messages.seq, told),
        isNull(conversationReads.mutedAt),
        // The 'Messages' row of their notification settings (e-mail on by default).
        sql`coalesce(${notificationPreferences.email}, ${DEFAULT_PREFERENCES.message.email})`,
        isNull(conversations.endedAt),
        mayReceive(sql`${liveEvents.userId}`),
        or(isNull(messageEmails.sentAt), lte(messageEmails.sentAt, new Date(now.getTime() - 3_600_000))),
      ),
    )
    .groupBy(liveEvents.userId, users.email, liveEvents.conversationId)
    .orderBy(asc(liveEvents.userId), asc(liveEvents.conversationId))
    .limit(EMAILS_PER_RUN) as Promise<UnreadDue[]>;
}

/** How many of the unread messages the e-mail quotes. */
const QUOTED = 3;

/** The unread messages an e-mail quotes (the oldest it tells about first), with their authors' names. */
export function quotedMessages(db: Db, { conversationId, afterSeq, upToSeq, userId }: UnreadDue) {
  return db
    .select({ body: messages.body, firstName: users.firstName, coupleId: messages.authorCoupleId })
    .from(messages)
    .leftJoin(users, eq(users.id, messages.authorUserId))
    .where(
      and(
        eq(messages.conversationId, conversationId),
        gt(messages.seq, afterSeq),
        lte(messages.seq, upToSeq),
        isNull(messages.deletedAt),
        or(isNull(messages.authorUserId), ne(messages.authorUserId, userId)),
      ),
    )
    .orderBy(asc(messages.seq))
    .limit(QUOTED);
}

/** The other couple of a conversation, seen by one of its people (whom the e-mail says the messages are from). */
export async function otherCouple(db: Db, conversationId: string, userId: string): Promise<{ id: string; name: string } | null> {
  const [row] = await db
    .select({ id: couples.id, name: couples.coupleName })
    .from(conversations)
    .innerJoin(couples, sql`${couples.id} in (${conversations.coupleLowId}, ${conversations.coupleHighId})`)
    .where(and(eq(conversations.id, conversationId), sql`${couples.id} is distinct from ${coupleOfUser(userId)}`))
    .limit(1);
  return row ?? null;
}
