import "server-only";
import { and, arrayContains, asc, eq, gt, gte, isNull, lte, not, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  conversationReads,
  conversations,
  couples,
  emailOutbox,
  liveEvents,
  messageEmails,
  messages,
  notificationPreferences,
  users,
} from "@/db/schema";
import { addressProven } from "@/lib/auth/email-verification";
import { firstLine } from "@/lib/plain-text";
import { enqueueEmail, giveUpMail, QUOTE_GONE } from "@/lib/mail/outbox";
import { notificationEmail } from "@/lib/mail/templates";
import { issueUnsubscribeToken } from "@/lib/notifications/preferences";
import { notificationHref } from "@/lib/notifications/rules";
import { readInBell } from "@/lib/notifications/wanted";
import { message as messageNotification } from "@/lib/notifications/types/message";
import { coupleOfUser } from "@/lib/safety/blocks";
import { hearsOfMessageSql, mayReceive } from "./access";
import { MESSAGE } from "./live";

/**
 * The e-mail about messages left unread (run by the due work, lib/scheduled): a message's in-app
 * notification is immediate, its e-mail waits to see whether it is read first.
 */

/** A person to tell about a conversation's messages they have left unread. */
type UnreadDue = {
  userId: string;
  email: string;
  conversationId: string;
  /** The messages told about: after this `seq` (read, or in an earlier e-mail), up to `upToSeq`. */
  afterSeq: number;
  upToSeq: number;
};

/**
 * How far back the e-mail looks past the delay: twice the one-e-mail-an-hour pause, so a message
 * held back by it is still in view when the hour ends (with the 5-minute cron's slack). Each run
 * reads this window's live rows, so its cost follows two hours of traffic, not a day's; work that
 * stopped for longer than this sends nothing old (the in-app notification stays).
 */
export const LOOKBACK_MINUTES = 120;

/** At most this many e-mails per run; the next run takes the rest. */
const EMAILS_PER_RUN = 200;

/**
 * The people with a message still unread `delaySeconds` after it reached them, per conversation:
 * found from the live rows that delivered it (one per person it reached, by live_events_created_idx),
 * written by the other couple (hearsOfMessage: never about their own or their partner's words, as
 * no notice is), not erased, after their read position and not read in their bell since
 * (lib/notifications/wanted.ts readInBell, the rule its delivery reads again), after what an earlier e-mail covered,
 * in a conversation they may still read, not muted, with e-mail for messages on, and not e-mailed
 * about in the last hour; at an address they proved (addressProven).
 */
function unreadDue(db: Db, now: Date, delaySeconds: number): Promise<UnreadDue[]> {
  const dueBefore = new Date(now.getTime() - delaySeconds * 1000);
  const read = sql`coalesce(${conversationReads.lastReadSeq}, 0)`;
  // The last e-mail about the conversation, one key lookup per row: as a plain join, a table whose
  // statistics say it is small (new, or not analyzed since it grew) was scanned whole for every row
  // (12,959 rows against 775 e-mails: 1.2 s of the scan's 1.6 s). The key holds one row at most; the
  // limit keeps Postgres from turning the lateral read back into that join.
  const emailed = db
    .select({ upToSeq: messageEmails.upToSeq, sentAt: messageEmails.sentAt })
    .from(messageEmails)
    .where(and(eq(messageEmails.userId, liveEvents.userId), eq(messageEmails.conversationId, conversations.id)))
    .limit(1)
    .as("emailed");
  const told = sql`coalesce(${emailed.upToSeq}, 0)`;
  return db
    .select({
      userId: liveEvents.userId,
      email: users.email,
      conversationId: messages.conversationId,
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
    .leftJoinLateral(emailed, sql`true`)
    .leftJoin(
      notificationPreferences,
      and(eq(notificationPreferences.userId, liveEvents.userId), eq(notificationPreferences.type, messageNotification.type)),
    )
    .where(
      and(
        eq(liveEvents.kind, MESSAGE.name),
        lte(liveEvents.createdAt, dueBefore),
        gt(liveEvents.createdAt, new Date(dueBefore.getTime() - LOOKBACK_MINUTES * 60_000)),
        isNull(messages.deletedAt),
        hearsOfMessageSql(sql`${liveEvents.userId}`),
        gt(messages.seq, read),
        not(readInBell(liveEvents.userId, conversations.id)),
        gt(messages.seq, told),
        isNull(conversationReads.mutedAt),
        // The 'Messages' row of their notification settings (e-mail on by default).
        sql`coalesce(${notificationPreferences.email}, ${messageNotification.defaults.email})`,
        isNull(conversations.endedAt),
        mayReceive(sql`${liveEvents.userId}`),
        addressProven(users),
        or(isNull(emailed.sentAt), lte(emailed.sentAt, new Date(now.getTime() - 3_600_000))),
      ),
    )
    .groupBy(liveEvents.userId, users.email, messages.conversationId)
    .orderBy(asc(liveEvents.userId), asc(messages.conversationId))
    .limit(EMAILS_PER_RUN) as Promise<UnreadDue[]>;
}

/** How many of the unread messages the e-mail quotes. */
const QUOTED = 3;

/**
 * The unread messages an e-mail quotes (the other couple's, the oldest it tells about first), with
 * their authors' names. Share-locked until the e-mail is written: an erasure under way (the
 * message's or its author's account's, lib/messages/service.ts erase) is waited for, and what it
 * erased is not quoted, as an e-mail written after it would not be.
 */
function quotedMessages(db: Db, { conversationId, afterSeq, upToSeq, userId }: UnreadDue) {
  return db
    .select({ body: messages.body, firstName: users.firstName, authorUserId: messages.authorUserId })
    .from(messages)
    .leftJoin(users, eq(users.id, messages.authorUserId))
    .where(
      and(
        eq(messages.conversationId, conversationId),
        gt(messages.seq, afterSeq),
        lte(messages.seq, upToSeq),
        isNull(messages.deletedAt),
        hearsOfMessageSql(userId),
        not(readInBell(userId, conversationId)),
      ),
    )
    .orderBy(asc(messages.seq))
    .limit(QUOTED)
    .for("share", { of: messages });
}

/** The other couple of a conversation, seen by one of its people (whom the e-mail says the messages are from). */
async function otherCouple(db: Db, conversationId: string, userId: string): Promise<{ id: string; name: string } | null> {
  const [row] = await db
    .select({ id: couples.id, name: couples.coupleName })
    .from(conversations)
    .innerJoin(couples, sql`${couples.id} in (${conversations.coupleLowId}, ${conversations.coupleHighId})`)
    .where(and(eq(conversations.id, conversationId), sql`${couples.id} is distinct from ${coupleOfUser(userId)}`))
    .limit(1);
  return row ?? null;
}

/** How long a quoted line may be in the e-mail. */
const QUOTE_MAX = 140;

/**
 * One person's e-mail about one conversation: 'New messages from Ana & Rui' (the in-app notice's
 * title), the other couple's first lines, a link to the thread, the one-click unsubscribe headers.
 */
async function emailUnread(db: Db, due: UnreadDue, now: Date): Promise<string> {
  const [other, quoted] = await Promise.all([otherCouple(db, due.conversationId, due.userId), quotedMessages(db, due)]);
  const lines = quoted.map(
    (message) => `${message.firstName ?? "A partner"}: ${message.body ? firstLine(message.body, QUOTE_MAX) : "sent a photo"}`,
  );
  const title = messageNotification.text.title(other?.name ?? "a couple");
  const token = await issueUnsubscribeToken(db, due.userId, messageNotification.type);
  const href = notificationHref({ type: messageNotification.type, post_id: null, reply_id: null, conversation_id: due.conversationId });
  const id = await enqueueEmail(db, {
    ...notificationEmail(due.email, { subject: messageNotification.emailSubject, title, message: lines.join("\n"), href }, token),
    recipientId: due.userId,
    about: quoted.flatMap((message) => (message.authorUserId ? [message.authorUserId] : [])),
    notice: { type: messageNotification.type, conversationId: due.conversationId },
  });
  await db
    .insert(messageEmails)
    .values({ userId: due.userId, conversationId: due.conversationId, sentAt: now, upToSeq: due.upToSeq })
    .onConflictDoUpdate({ target: [messageEmails.userId, messageEmails.conversationId], set: { sentAt: now, upToSeq: due.upToSeq } });
  return id;
}

/**
 * Writes, in the caller's transaction, each e-mail now due about messages left unread
 * `delaySeconds` after they arrived (at most EMAILS_PER_RUN a run; the next run takes the rest),
 * and answers their outbox ids: they leave after the commit.
 */
export async function enqueueUnreadMessageEmails(db: Db, now: Date, delaySeconds: number): Promise<string[]> {
  const ids: string[] = [];
  for (const due of await unreadDue(db, now, delaySeconds)) ids.push(await emailUnread(db, due, now));
  return ids;
}

/** An erased (or edited) message as withdrawEmailsQuoting reads it. */
export type ErasedMessage = { conversationId: string; authorUserId: string | null; createdAt: Date };

/**
 * An erased message leaves no copy behind (its author's, a moderator's or an account's erasure,
 * ./service.ts erase), nor do the words its author's edit took back (./changes.ts): the
 * unread-message e-mails still waiting that may quote it (a try again after
 * a failure, or one a busy provider left for the next run) are given up, their words gone: its
 * conversation's, naming its author, queued since it was written. One condition per conversation
 * and author, however many of their messages went.
 */
export async function withdrawEmailsQuoting(db: Db, erased: readonly ErasedMessage[]): Promise<void> {
  const earliest = new Map<string, ErasedMessage & { authorUserId: string }>();
  for (const message of erased) {
    // An author whose account went took every e-mail naming them (lib/mail/outbox.ts deleteMailAbout).
    if (!message.authorUserId) continue;
    const key = `${message.conversationId} ${message.authorUserId}`;
    const known = earliest.get(key);
    if (!known || message.createdAt < known.createdAt) earliest.set(key, { ...message, authorUserId: message.authorUserId });
  }
  if (earliest.size === 0) return;
  const mayQuote = [...earliest.values()].map(({ conversationId, authorUserId, createdAt }) =>
    and(
      eq(emailOutbox.conversationId, conversationId),
      arrayContains(emailOutbox.aboutUserIds, [authorUserId]),
      gte(emailOutbox.createdAt, createdAt),
    ),
  );
  await giveUpMail(db, and(eq(emailOutbox.notificationType, messageNotification.type), or(...mayQuote))!, QUOTE_GONE);
}
