import "server-only";
import { and, eq, inArray, isNotNull, notInArray, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { conversationReads, emailOutbox, messages, notificationPreferences, notifications } from "@/db/schema";
import { hearsOfMessageSql } from "@/lib/messages/access";
import { NOTIFICATION_DEFINITIONS } from "./types";
import type { NewNotification } from "./rules";
import { message } from "./types/message";

/** The channels a queued notification waits in an outbox for (in the app, it is written at once). */
type Queued = "email" | "push";

/** A queued notification as its outbox row holds it: whom it is for, its type, its conversation. */
export type QueuedNotice = { userId: AnyPgColumn; type: AnyPgColumn; conversationId: AnyPgColumn };

/** The types whose e-mail no choice turns off (`serviceEmail`): they go whatever the person chose. */
const SERVICE_EMAIL_TYPES = NOTIFICATION_DEFINITIONS.filter((definition) => definition.serviceEmail).map((definition) => definition.type);

/**
 * SQL: the person (a user id, or SQL naming one) marked the conversation's entry in their bell read
 * after the message in the query (a `messages` row) was written: told of it, they dismissed it,
 * and a message counts as read so, as in the thread. The entry is the conversation's one
 * 'message' row (./types/message.ts groupKey), which each message it tells of makes unread again
 * (`reopensReadRow`): read, it was read after them; a message that did not tell of it (muted, or
 * in the app turned off) and came after that read is not covered. The push of a notification read
 * is withheld by its row (./push/deliver.ts), the same rule for a message's.
 */
export const readInBell = (userId: string | SQL | AnyPgColumn, conversationId: string | SQL | AnyPgColumn): SQL =>
  sql`exists (select 1 from ${notifications} where ${notifications.userId} = ${userId} and ${notifications.groupKey} = (${message.text.groupKey("")}::text || ${conversationId}::text) and ${notifications.isRead} and ${notifications.readAt} >= ${messages.createdAt})`;

/**
 * SQL: a message notice's person has read, since it was queued, all it told of: nothing in its
 * conversation they hear of (hearsOfMessageSql: the other couple's) is left after their read
 * position unless its bell entry was read after it (`readInBell`), erased messages aside. The
 * e-mail outbox knows no notification, only its person, type and conversation; the
 * unread-message e-mail is queued by this same rule (lib/messages/unread-email.ts).
 */
const readSinceQueued = (notice: QueuedNotice): SQL =>
  and(
    isNotNull(notice.conversationId),
    sql`not exists (select 1 from ${messages} where ${messages.conversationId} = ${notice.conversationId} and ${messages.deletedAt} is null and ${hearsOfMessageSql(sql`${notice.userId}`)} and ${messages.seq} > coalesce((select ${conversationReads.lastReadSeq} from ${conversationReads} where ${conversationReads.userId} = ${notice.userId} and ${conversationReads.conversationId} = ${notice.conversationId}), 0) and not ${readInBell(notice.userId, notice.conversationId)})`,
  )!;

/**
 * SQL: the person muted the conversation ('Mute': no notifications from it, per person). A notice
 * of a conversation (a message's, a plan's) is then neither written (`mutedAmong`) nor sent from
 * an outbox (`unwanted`); its cards and thread still change live.
 */
const mutedConversation = (userId: string | SQL | AnyPgColumn, conversationId: string | SQL | AnyPgColumn): SQL =>
  sql`exists (select 1 from ${conversationReads} where ${conversationReads.userId} = ${userId} and ${conversationReads.conversationId} = ${conversationId} and ${conversationReads.mutedAt} is not null)`;

/**
 * Which of the notices about to be written go to a person who muted their conversation
 * (`mutedConversation`), in the order given: one read by the reads' primary key, none when no
 * notice names a conversation. The sender (./service.ts) writes and sends those nowhere.
 */
export async function mutedAmong(db: Db, list: readonly NewNotification[]): Promise<boolean[]> {
  const pairs = list.filter((notice) => notice.conversationId);
  if (pairs.length === 0) return list.map(() => false);
  const rows = await db
    .select({ userId: conversationReads.userId, conversationId: conversationReads.conversationId })
    .from(conversationReads)
    .where(
      and(
        inArray(conversationReads.userId, [...new Set(pairs.map((notice) => notice.userId))]),
        inArray(conversationReads.conversationId, [...new Set(pairs.map((notice) => notice.conversationId!))]),
        isNotNull(conversationReads.mutedAt),
      ),
    );
  const muted = new Set(rows.map((row) => `${row.userId} ${row.conversationId}`));
  return list.map((notice) => muted.has(`${notice.userId} ${notice.conversationId}`));
}

/**
 * The one rule of whether a person stopped wanting a notification queued for a channel, read as
 * it is sent (the first try and each retry): that channel turned off for its type since it was
 * queued (a service e-mail's excepted), its conversation muted (`mutedConversation`: a message's
 * or a plan's), or, a message's, read since (`readSinceQueued`: nothing it told of is left
 * unread, in the thread or the bell). The push sender (./push/deliver.ts) and the e-mail outbox
 * (lib/mail/outbox.ts, handed `emailUnwanted`) both drop what it picks, unsent.
 */
export function unwanted(channel: Queued, notice: QueuedNotice): SQL {
  const turnedOff = sql`exists (select 1 from ${notificationPreferences} where ${notificationPreferences.userId} = ${notice.userId} and ${notificationPreferences.type} = ${notice.type} and ${notificationPreferences[channel]} = false)`;
  return or(
    channel === "email" ? and(turnedOff, notInArray(notice.type, SERVICE_EMAIL_TYPES)) : turnedOff,
    mutedConversation(notice.userId, notice.conversationId),
    and(eq(notice.type, message.type), readSinceQueued(notice)),
  )!;
}

/** The e-mail outbox's rows (lib/mail/outbox.ts deliverEmails) that `unwanted` drops; a transactional e-mail (no type) is never one. */
export const emailUnwanted = (): SQL =>
  and(
    isNotNull(emailOutbox.notificationType),
    unwanted("email", { userId: emailOutbox.recipientId, type: emailOutbox.notificationType, conversationId: emailOutbox.conversationId }),
  )!;
