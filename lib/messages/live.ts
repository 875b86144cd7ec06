import "server-only";
import { and, eq, exists, inArray, or, sql, type SQL } from "drizzle-orm";
import { conversationReads, conversations, messages, users } from "@/db/schema";
import { coupleIdOf } from "@/lib/couples/queries";
import type { LiveFeature, LiveKind, LiveRow, RenderContext } from "@/lib/live/kinds";
import { mayReceive, memberOf } from "./access";
import { messagesBadgeCount } from "./badge";
import { threadMessages, threadRows, threadRowsOf, type MessageItem } from "./queries";

/**
 * Messaging's live kinds (registered in lib/registry/live.ts): a message, a deleted message and a
 * read position, each sent only while the person may receive its conversation (./access.ts); an
 * erasure to every member.
 */

const subjects = (rows: readonly LiveRow[]) => [...new Set(rows.flatMap((row) => (row.subjectId ? [row.subjectId] : [])))];

/**
 * The messages the person may read now, as the messaging API shows them (an erased one erased),
 * in conversations `sendable` lets reach them.
 */
async function visibleMessages(
  { db, userId }: RenderContext,
  ids: string[],
  sendable: (userId: string) => SQL,
): Promise<Map<string, MessageItem>> {
  if (ids.length === 0) return new Map();
  const receivable = db
    .select({ one: sql`1` })
    .from(conversations)
    .where(and(eq(conversations.id, messages.conversationId), sendable(userId)));
  const [answer] = await threadRows(db, userId, { where: and(inArray(messages.id, ids), exists(receivable))! });
  return new Map((await threadMessages(db, threadRowsOf(answer))).map((item) => [item.id, item]));
}

/** A message written: the message as the thread shows it. Subject: the message. */
export const MESSAGE: LiveKind = {
  name: "message",
  event: "message",
  changesCounts: true,
  async render(context, rows) {
    const shown = await visibleMessages(context, subjects(rows), mayReceive);
    return rows.map((row) => shown.get(row.subjectId ?? ""));
  },
};

/**
 * A message deleted (its words erased): the message as the thread shows it now, erased. Subject:
 * the message. To every member, across a block too: the ended thread stays readable (memberOf), and
 * words its author or a moderator erased leave every open copy of it, telling nothing new.
 */
export const MESSAGE_DELETED: LiveKind = {
  name: "message_deleted",
  event: "message-deleted",
  changesCounts: true,
  async render(context, rows) {
    const shown = await visibleMessages(context, subjects(rows), memberOf);
    return rows.map((row) => shown.get(row.subjectId ?? ""));
  },
};

/**
 * A person's read position moved: 'Seen by' follows, while the reader is still one of the
 * conversation's members. Subject: the reader; payload: `{ conversationId }`.
 */
export const READ: LiveKind = {
  name: "read",
  event: "read",
  changesCounts: true,
  async render({ db, userId }, rows) {
    const pairs = rows.flatMap((row) =>
      row.payload?.conversationId && row.subjectId ? [{ conversationId: row.payload.conversationId, readerId: row.subjectId }] : [],
    );
    if (pairs.length === 0) return rows.map(() => undefined);
    const found = await db
      .select({
        conversationId: conversationReads.conversationId,
        userId: conversationReads.userId,
        firstName: users.firstName,
        lastReadMessageId: conversationReads.lastReadMessageId,
      })
      .from(conversationReads)
      .innerJoin(conversations, eq(conversations.id, conversationReads.conversationId))
      .innerJoin(users, eq(users.id, conversationReads.userId))
      .where(
        and(
          or(
            ...pairs.map((pair) =>
              and(eq(conversationReads.conversationId, pair.conversationId), eq(conversationReads.userId, pair.readerId)),
            ),
          ),
          mayReceive(userId),
          // A partner who left their couple since is no reader of the conversation any more (as its 'Seen by' shows it).
          memberOf(sql`${conversationReads.userId}`),
        ),
      );
    const shown = new Map(found.map((row) => [`${row.conversationId}:${row.userId}`, row]));
    return rows.map((row) => shown.get(`${row.payload?.conversationId}:${row.subjectId}`));
  },
};

export const messagesLive: LiveFeature = {
  kinds: [MESSAGE, MESSAGE_DELETED, READ],
  counts: [
    {
      // The message badge's number: 0 without a couple.
      name: "messages",
      async read({ db, userId }) {
        const coupleId = await coupleIdOf(db, userId);
        return coupleId ? messagesBadgeCount(db, { userId, coupleId }) : 0;
      },
    },
  ],
};
