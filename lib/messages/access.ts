import "server-only";
import { and, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { conversations, couples, messages } from "@/db/schema";
import { holdPartnersWhere } from "@/lib/membership/partner";
import { coupleOfUser, notBlockedBetween, type CoupleRef } from "@/lib/safety/blocks";

/**
 * Who may read a conversation, the one rule every reader uses (the messaging API, the live stream,
 * the unread-message e-mail). Only the four partners of its two couples read it; a partner who
 * left their couple no longer does.
 */

/** SQL: the couple (a value, a column or a subquery) is one of the conversation's two. */
export const ofCouple = (couple: CoupleRef): SQL => sql`${couple} in (${conversations.coupleLowId}, ${conversations.coupleHighId})`;

/** SQL on `couples`: the two couples of each conversation `where` (SQL on `conversations`) picks. */
export const couplesOfConversations = (where: SQL): SQL =>
  sql`${couples.id} in (select unnest(array[${conversations.coupleLowId}, ${conversations.coupleHighId}]) from ${conversations} where ${where})`;

/**
 * Inside a write's transaction, before any couple, conversation or what it holds: the rows of the
 * people of each conversation `ids` (SQL selecting conversation ids) names, key-shared in one id
 * order (holdPartnersWhere), as the write's notices and live rows to them take them anyway. An
 * account's deletion takes the person's row, then writes their couple's conversations, messages
 * and plans: the write waits for it first, never holds what it writes while waiting on the person.
 * With `memberCouple`, only of the conversations that couple is one of: a write it may not make
 * holds nobody before its 404.
 */
export async function holdPeopleOfConversations(tx: Db, ids: SQL, memberCouple?: string): Promise<void> {
  await holdPartnersWhere(
    tx,
    couplesOfConversations(and(sql`${conversations.id} in (${ids})`, memberCouple ? ofCouple(memberCouple) : undefined)!),
  );
}

/** SQL: the person (a user id, or SQL naming one) is one of the conversation's members now. */
export const memberOf = (userId: string | SQL): SQL => ofCouple(coupleOfUser(userId));

/**
 * SQL: the person may be sent the conversation's messages and read positions now: a member, with
 * no block between the two couples. A block ends the conversation; what it held stays readable in
 * the thread (memberOf), but nothing is delivered across it (live events, e-mails) but an erasure
 * (./live.ts MESSAGE_DELETED: words taken away from every open copy).
 */
export const mayReceive = (userId: string | SQL): SQL =>
  and(memberOf(userId), notBlockedBetween(conversations.coupleLowId, conversations.coupleHighId))!;

/**
 * Who hears of a message, the one rule for its every notice (the in-app notification and its
 * push, ./service.ts `sendMessage`; the e-mail about what is left unread, ./unread-email.ts): the
 * people of the other couple. The author's couple wrote it, so neither the author nor their own
 * partner is told of it (their unread count still rises). Here for one person of the conversation
 * by couple ids; `hearsOfMessageSql` is the same for the message row and a person given as SQL (a
 * message whose author's couple is gone is the other couple's).
 */
export const hearsOfMessage = (authorCoupleId: string | null, personCoupleId: string): boolean => authorCoupleId !== personCoupleId;

/** SQL: `hearsOfMessage` for the `messages` row in the query and the person (a user id, or SQL naming one). */
export const hearsOfMessageSql = (userId: string | SQL): SQL => sql`${messages.authorCoupleId} is distinct from ${coupleOfUser(userId)}`;
