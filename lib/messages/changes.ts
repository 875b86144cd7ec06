import "server-only";
import { holdUnrestricted } from "@/lib/safety/sanctions";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { transaction } from "@/db/transaction";
import { conversations, messageReactions, messages } from "@/db/schema";
import type { ReactionKind } from "@/db/schema/forum-values";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { AppError } from "@/lib/errors";
import { publishLive } from "@/lib/live/publish";
import { consumeLimit, limitError } from "@/lib/rate-limit";
import { ofCouple } from "./access";
import { MESSAGE } from "./live";
import { holdMembersOfMessage, membersOf, messageById, type MessageItem } from "./queries";
import { editable, MESSAGE_LIMITS, MESSAGE_TEXTS } from "./rules";
import { openConversation } from "./queries";
import { withdrawEmailsQuoting } from "./unread-email";

/**
 * What the four change on a message after it is sent: its author's words within the edit window,
 * and anyone's reactions. Each change is shown to all four at once (the message's live row again:
 * the thread replaces its copy by id), and none is possible once the conversation has ended.
 */

/**
 * The member's message, locked, in a conversation still open, held open until the change commits
 * (an ending waits for it: no change lands after it); 404 for anyone outside it. The message
 * first, then the conversation: the order an account's deletion takes them (eraseMember). The
 * caller key-shares the four before (holdMembersOfMessage), as that deletion takes its person's row first.
 */
async function changeable(tx: Db, member: ActingCouple, messageId: string) {
  const [row] = await tx
    .select({
      conversationId: messages.conversationId,
      authorUserId: messages.authorUserId,
      createdAt: messages.createdAt,
      deletedAt: messages.deletedAt,
    })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(and(eq(messages.id, messageId), ofCouple(member.coupleId)))
    .for("no key update", { of: messages });
  if (!row) throw new AppError("NOT_FOUND", MESSAGE_TEXTS.messageNotFound);
  await openConversation(tx, member, row.conversationId, "share");
  return row;
}

async function spendChange(tx: Db, userId: string): Promise<void> {
  const state = await consumeLimit(tx, MESSAGE_LIMITS.changesPerMinute, userId);
  if (!state.allowed) throw limitError(MESSAGE_LIMITS.changesPerMinute, state.retryAfterSeconds);
}

/** Tells the conversation's members the message changed (their streams render it again for each). */
async function republish(tx: Db, conversationId: string, messageId: string): Promise<void> {
  const people = await membersOf(tx, conversationId);
  await publishLive(
    tx,
    people.map(({ userId }) => ({ userId, kind: MESSAGE, subjectId: messageId })),
  );
}

/**
 * `PATCH /api/messages/{id}`: its author changes its words within 15 minutes of sending it
 * ('edited' shows after); another member gets 403, anyone else 404, a deleted message or a late
 * edit 403 with the reason. An e-mail still waiting that may quote the old words is given up, as
 * for a forum post's edit (a push reads the words as it leaves).
 */
export async function editMessage(db: Db, member: ActingCouple, messageId: string, body: string): Promise<MessageItem> {
  await transaction(db, async (tx) => {
    // The four people, then the couple, then the message: a person's row before their couple's.
    await holdMembersOfMessage(tx, messageId, member.coupleId);
    // A restricted couple neither sends nor rewrites what it sent (checked under the couple's lock, before the message's).
    await holdUnrestricted(tx, member.coupleId);
    const row = await changeable(tx, member, messageId);
    if (row.authorUserId !== member.userId) throw new AppError("FORBIDDEN", MESSAGE_TEXTS.notEditor);
    if (row.deletedAt) throw new AppError("FORBIDDEN", MESSAGE_TEXTS.editDeleted);
    if (!editable(row.createdAt)) throw new AppError("FORBIDDEN", MESSAGE_TEXTS.editClosed);
    await spendChange(tx, member.userId);
    await tx.update(messages).set({ body, editedAt: new Date() }).where(eq(messages.id, messageId));
    // An unread-message e-mail still waiting (a retry, or a delay shorter than the edit window) quotes the words taken back.
    await withdrawEmailsQuoting(tx, [{ conversationId: row.conversationId, authorUserId: member.userId, createdAt: row.createdAt }]);
    await republish(tx, row.conversationId, messageId);
  });
  return (await messageById(db, member.userId, messageId))!;
}

/**
 * `PUT` (on) and `DELETE` (off) `/api/messages/{id}/reactions`: any of the four reacts with one of
 * the forum's five; each kind once per person, so repeating either is a no-op. A deleted message
 * takes none (404, as it is no longer there to react to).
 */
export async function reactToMessage(
  db: Db,
  member: ActingCouple,
  messageId: string,
  kind: ReactionKind,
  on: boolean,
): Promise<MessageItem> {
  await transaction(db, async (tx) => {
    await holdMembersOfMessage(tx, messageId, member.coupleId);
    const row = await changeable(tx, member, messageId);
    if (row.deletedAt) throw new AppError("NOT_FOUND", MESSAGE_TEXTS.messageNotFound);
    await spendChange(tx, member.userId);
    const changed = on
      ? await tx.insert(messageReactions).values({ messageId, userId: member.userId, kind }).onConflictDoNothing().returning()
      : await tx
          .delete(messageReactions)
          .where(
            and(eq(messageReactions.messageId, messageId), eq(messageReactions.userId, member.userId), eq(messageReactions.kind, kind)),
          )
          .returning();
    if (changed.length > 0) await republish(tx, row.conversationId, messageId);
  });
  return (await messageById(db, member.userId, messageId))!;
}
