import "server-only";
import { and, eq, isNotNull, notInArray, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { conversationReads, emailOutbox, notificationPreferences } from "@/db/schema";
import { NOTIFICATION_DEFINITIONS } from "./types";
import { message } from "./types/message";

/** The channels a queued notification waits in an outbox for (in the app, it is written at once). */
type Queued = "email" | "push";

/** A queued notification as its outbox row holds it: whom it is for, its type, its conversation. */
export type QueuedNotice = { userId: AnyPgColumn; type: AnyPgColumn; conversationId: AnyPgColumn };

/** The types whose e-mail no choice turns off (`serviceEmail`): they go whatever the person chose. */
const SERVICE_EMAIL_TYPES = NOTIFICATION_DEFINITIONS.filter((definition) => definition.serviceEmail).map((definition) => definition.type);

/**
 * The one rule of whether a person stopped wanting a notification queued for a channel, read as
 * it is sent (the first try and each retry): that channel turned off for its type since it was
 * queued (a service e-mail's excepted), or, a message's, its conversation muted (no message
 * notifies in a muted one, lib/messages/service.ts). The push sender (./push/deliver.ts) and the
 * e-mail outbox (lib/mail/outbox.ts, handed `emailUnwanted`) both drop what it picks, unsent.
 */
export function unwanted(channel: Queued, notice: QueuedNotice): SQL {
  const turnedOff = sql`exists (select 1 from ${notificationPreferences} where ${notificationPreferences.userId} = ${notice.userId} and ${notificationPreferences.type} = ${notice.type} and ${notificationPreferences[channel]} = false)`;
  const muted = sql`exists (select 1 from ${conversationReads} where ${conversationReads.userId} = ${notice.userId} and ${conversationReads.conversationId} = ${notice.conversationId} and ${conversationReads.mutedAt} is not null)`;
  return or(
    channel === "email" ? and(turnedOff, notInArray(notice.type, SERVICE_EMAIL_TYPES)) : turnedOff,
    and(eq(notice.type, message.type), muted),
  )!;
}

/** The e-mail outbox's rows (lib/mail/outbox.ts deliverEmails) that `unwanted` drops; a transactional e-mail (no type) is never one. */
export const emailUnwanted = (): SQL =>
  and(
    isNotNull(emailOutbox.notificationType),
    unwanted("email", { userId: emailOutbox.recipientId, type: emailOutbox.notificationType, conversationId: emailOutbox.conversationId }),
  )!;
