import "server-only";
import { and, eq, isNotNull, notInArray, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { conversationReads, emailOutbox, messages, notificationPreferences } from "@/db/schema";
import { hearsOfMessageSql } from "@/lib/messages/access";
import { NOTIFICATION_DEFINITIONS } from "./types";
import { message } from "./types/message";

/** The channels a queued notification waits in an outbox for (in the app, it is written at once). */
type Queued = "email" | "push";

/** A queued notification as its outbox row holds it: whom it is for, its type, its conversation. */
export type QueuedNotice = { userId: AnyPgColumn; type: AnyPgColumn; conversationId: AnyPgColumn };

/** The types whose e-mail no choice turns off (`serviceEmail`): they go whatever the person chose. */
const SERVICE_EMAIL_TYPES = NOTIFICATION_DEFINITIONS.filter((definition) => definition.serviceEmail).map((definition) => definition.type);

/**
 * SQL: a message notice's person has read, since it was queued, all it told of: nothing in its
 * conversation they hear of (hearsOfMessageSql: the other couple's) is left after their read
 * position, erased messages aside. Read by the conversation's state alone, not the notice's bell
 * row: the e-mail outbox knows no notification, and the unread-message e-mail is queued by this
 * same read position (lib/messages/unread-email.ts).
 */
const readSinceQueued = (notice: QueuedNotice): SQL =>
  and(
    isNotNull(notice.conversationId),
    sql`not exists (select 1 from ${messages} where ${messages.conversationId} = ${notice.conversationId} and ${messages.deletedAt} is null and ${hearsOfMessageSql(sql`${notice.userId}`)} and ${messages.seq} > coalesce((select ${conversationReads.lastReadSeq} from ${conversationReads} where ${conversationReads.userId} = ${notice.userId} and ${conversationReads.conversationId} = ${notice.conversationId}), 0))`,
  )!;

/**
 * The one rule of whether a person stopped wanting a notification queued for a channel, read as
 * it is sent (the first try and each retry): that channel turned off for its type since it was
 * queued (a service e-mail's excepted), or, a message's, its conversation muted (no message
 * notifies in a muted one, lib/messages/service.ts) or read since (`readSinceQueued`: nothing it
 * told of is left unread). The push sender (./push/deliver.ts) and the e-mail outbox
 * (lib/mail/outbox.ts, handed `emailUnwanted`) both drop what it picks, unsent.
 */
export function unwanted(channel: Queued, notice: QueuedNotice): SQL {
  const turnedOff = sql`exists (select 1 from ${notificationPreferences} where ${notificationPreferences.userId} = ${notice.userId} and ${notificationPreferences.type} = ${notice.type} and ${notificationPreferences[channel]} = false)`;
  const muted = sql`exists (select 1 from ${conversationReads} where ${conversationReads.userId} = ${notice.userId} and ${conversationReads.conversationId} = ${notice.conversationId} and ${conversationReads.mutedAt} is not null)`;
  return or(
    channel === "email" ? and(turnedOff, notInArray(notice.type, SERVICE_EMAIL_TYPES)) : turnedOff,
    and(eq(notice.type, message.type), or(muted, readSinceQueued(notice))),
  )!;
}

/** The e-mail outbox's rows (lib/mail/outbox.ts deliverEmails) that `unwanted` drops; a transactional e-mail (no type) is never one. */
export const emailUnwanted = (): SQL =>
  and(
    isNotNull(emailOutbox.notificationType),
    unwanted("email", { userId: emailOutbox.recipientId, type: emailOutbox.notificationType, conversationId: emailOutbox.conversationId }),
  )!;
