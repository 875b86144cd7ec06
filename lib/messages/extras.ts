import "server-only";
import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { messageReactions, messages, users } from "@/db/schema";
import { REACTION_KINDS, type ReactionKind } from "@/db/schema/forum-values";
import { MESSAGE_TEXTS, QUOTE_EXCERPT_MAX } from "./rules";

/** The message a reply answers, as shown above it: its author and the start of its words. */
export type MessageQuote = { id: string; authorFirstName: string; excerpt: string | null; photo: boolean; deleted: boolean };
/** One of the five reactions on a message: how many people chose it, their first names (four at most), and whether the viewer did. */
export type MessageReaction = { kind: ReactionKind; count: number; names: string[]; mine: boolean };

/**
 * What a thread shows beside each message's own row: the message a reply answers, and the
 * reactions on it. One query each for a whole page (messages_pkey, message_reactions_pkey).
 */

/** The quoted messages by id: their author's first name and the start of their words (none once deleted). */
export async function quotesOf(db: Db, ids: readonly string[]): Promise<Map<string, MessageQuote>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: messages.id,
      excerpt: sql<string | null>`left(${messages.body}, ${QUOTE_EXCERPT_MAX})`,
      photo: sql<boolean>`${messages.photoUrl} is not null`,
      deleted: sql<boolean>`${messages.deletedAt} is not null`,
      firstName: users.firstName,
    })
    .from(messages)
    .leftJoin(users, eq(users.id, messages.authorUserId))
    .where(inArray(messages.id, [...ids]));
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        authorFirstName: row.firstName ?? MESSAGE_TEXTS.deletedMember,
        excerpt: row.deleted ? null : row.excerpt,
        photo: !row.deleted && row.photo,
        deleted: row.deleted,
      },
    ]),
  );
}

/** The reactions on each message, in the forum's order, with whether `viewerId` chose each. */
export async function reactionsOf(db: Db, viewerId: string, messageIds: readonly string[]): Promise<Map<string, MessageReaction[]>> {
  const found = new Map<string, MessageReaction[]>();
  if (messageIds.length === 0) return found;
  const rows = await db
    .select({
      messageId: messageReactions.messageId,
      kind: messageReactions.kind,
      count: sql<number>`count(*)::int`,
      names: sql<string[]>`array_agg(${users.firstName} order by ${messageReactions.createdAt})`,
      mine: sql<boolean>`bool_or(${messageReactions.userId} = ${viewerId})`,
    })
    .from(messageReactions)
    .innerJoin(users, eq(users.id, messageReactions.userId))
    .where(inArray(messageReactions.messageId, [...messageIds]))
    .groupBy(messageReactions.messageId, messageReactions.kind);
  const order = (kind: string) => REACTION_KINDS.indexOf(kind as (typeof REACTION_KINDS)[number]);
  for (const row of rows.sort((a, b) => order(a.kind) - order(b.kind))) {
    const list = found.get(row.messageId) ?? [];
    list.push({ kind: row.kind, count: row.count, names: row.names, mine: row.mine });
    found.set(row.messageId, list);
  }
  return found;
}
