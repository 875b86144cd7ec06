import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { messageReactions, messages, users } from "@/db/schema";
import { REACTION_KINDS, type ReactionKind } from "@/db/schema/forum-values";
import { MESSAGE_TEXTS, QUOTE_EXCERPT_MAX, quoteExcerpt } from "./rules";

/** The message a reply answers, as shown above it: its author and the start of its words. */
export type MessageQuote = { id: string; authorFirstName: string; excerpt: string | null; photo: boolean; deleted: boolean };
/** One of the five reactions on a message: how many people chose it, their first names (four at most), and whether the viewer did. */
export type MessageReaction = { kind: ReactionKind; count: number; names: string[]; mine: boolean };

/**
 * What a thread shows beside each message's own row: the message a reply answers, and the
 * reactions on it. Both are read in the statement that reads the messages (lib/messages/queries.ts
 * `threadRows`): the quote by two joins on primary keys, the reactions grouped once for the page
 * (message_reactions_pkey). A thread's page is then one round trip.
 */

/** The quoted message and its author, joined on the reply's `reply_to_id`. */
export const quoted = alias(messages, "quoted");
export const quotedAuthor = alias(users, "quoted_author");

export const quoteColumns = {
  id: quoted.id,
  // Read no further than the excerpt goes; `quoteOf` cuts it (quoteExcerpt, the rule the browser follows too).
  excerpt: sql<string | null>`left(${quoted.body}, ${QUOTE_EXCERPT_MAX})`,
  photo: sql<boolean>`${quoted.photoUrl} is not null`,
  deleted: sql<boolean>`${quoted.deletedAt} is not null`,
  firstName: quotedAuthor.firstName,
};

export type QuoteRow = {
  id: string | null;
  excerpt: string | null;
  photo: boolean | null;
  deleted: boolean | null;
  firstName: string | null;
};

/** The quote above a reply (none once the quoted message's words are erased), or null for no quote. */
export function quoteOf(row: QuoteRow | null): MessageQuote | null {
  if (!row?.id) return null;
  const deleted = row.deleted === true;
  return {
    id: row.id,
    authorFirstName: row.firstName ?? MESSAGE_TEXTS.deletedMember,
    excerpt: deleted || row.excerpt === null ? null : quoteExcerpt(row.excerpt),
    photo: !deleted && row.photo === true,
    deleted,
  };
}

export type ReactionsJson = [ReactionKind, number, string[], boolean][];

const PAGE_REACTIONS = "page_reactions";
/** A column of the reactions' CTE, named with it (Drizzle writes a raw CTE's fields unqualified). */
const pageReactionsColumn = <T>(name: string) => sql<T>`${sql.identifier(PAGE_REACTIONS)}.${sql.identifier(name)}`;

/**
 * The reactions on each of a page's messages (`messageIds`: SQL selecting their ids), as a CTE of
 * `(message_id, reactions)`, reactions as JSON `[[kind, count, names, mine], ...]`, names in the
 * order they reacted: one grouping for the whole page, never a subquery per message. A message
 * nobody reacted to has no row.
 */
export function pageReactions(db: Db, viewerId: string | SQL, messageIds: SQL) {
  const cte = db
    .$with(PAGE_REACTIONS, {
      messageId: sql<string>`message_id`.as("message_id"),
      reactions: sql<ReactionsJson>`reactions`.as("reactions"),
    })
    .as(
      sql`select k.message_id, json_agg(json_build_array(k.kind, k.n, k.names, k.mine)) as reactions from (
        select ${messageReactions.messageId} as message_id, ${messageReactions.kind} as kind, count(*)::int as n,
          array_agg(${users.firstName} order by ${messageReactions.createdAt}) as names,
          bool_or(${messageReactions.userId} = ${viewerId}) as mine
        from ${messageReactions} join ${users} on ${users.id} = ${messageReactions.userId}
        where ${messageReactions.messageId} in (${messageIds})
        group by ${messageReactions.messageId}, ${messageReactions.kind}) k
      group by k.message_id`,
    );
  return { cte, messageId: pageReactionsColumn<string>("message_id"), reactions: pageReactionsColumn<ReactionsJson>("reactions") };
}

const order = (kind: ReactionKind) => REACTION_KINDS.indexOf(kind);

/** The reactions in the forum's order of kinds. */
export const reactionsOf = (json: ReactionsJson): MessageReaction[] =>
  json.map(([kind, count, names, mine]) => ({ kind, count, names, mine })).sort((a, b) => order(a.kind) - order(b.kind));
