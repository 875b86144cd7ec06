import "server-only";
import { photoBadge, type PhotoBadge } from "@/lib/verification/rules";
import { and, desc, eq, inArray, isNull, or, sql, type Placeholder, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { afterKey, afterRow, keyOrder, keysetOrder } from "@/db/keyset-pages";
import { jsonObject } from "@/db/json";
import { placeholderSql, preparedPer } from "@/db/prepared";
import { conversationReads, conversations, couples, messageReactions, messages, users } from "@/db/schema";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { readerAccountColumns, readerJoins } from "@/lib/auth/users";
import { AppError } from "@/lib/errors";
import { standTogether } from "@/lib/safety/visibility";
import { holdPeopleOfConversations, ofCouple } from "./access";
import {
  pageReactions,
  quoteColumns,
  quoted,
  quotedAuthor,
  quoteOf,
  reactionsOf,
  type MessageQuote,
  type MessageReaction,
  type QuoteRow,
  type ReactionsJson,
} from "./extras";
import { plainLinkMessages } from "./plain-links";
import { MESSAGE_TEXTS, UNREAD_COUNT_CAP } from "./rules";

/**
 * Reads of conversations. Only the four partners of the two couples read a conversation (./access.ts):
 * every read starts from `memberConversation`, which answers anyone else 404 with nothing revealed,
 * or checks the same rule in its own statement and asks `memberConversation` when it finds nothing
 * (a thread's page, ./thread.ts; the detail, which answers 404 itself).
 */

export const conversationNotFound = () => new AppError("NOT_FOUND", MESSAGE_TEXTS.notFound);

/** A write to an ended conversation (or its plans): 403. */
export const conversationEndedError = () => new AppError("CONVERSATION_ENDED", MESSAGE_TEXTS.ended);

export type MemberConversation = { id: string; otherCoupleId: string | null; ended: boolean };

/** Ended by a block either way, or when a couple has no partner left (its side is null). */
export const endedSql = sql<boolean>`(${conversations.endedAt} is not null or ${conversations.coupleLowId} is null or ${conversations.coupleHighId} is null)`;

/**
 * How a write holds the conversation it read open until it commits, so an ending (a block, a
 * suspension: their update of the row) waits for it: `no key update` for a new message, which
 * also excludes other messages (`seq`'s order); `share` for a change to what is there (an edit, a
 * reaction, a read position), which excludes no other change.
 */
export type ConversationLock = "no key update" | "share";

/** The member's conversation, or 404 (also for a conversation of other couples: nothing revealed). */
export async function memberConversation(db: Db, member: ActingCouple, id: string, lock?: ConversationLock): Promise<MemberConversation> {
  const query = db
    .select({ id: conversations.id, low: conversations.coupleLowId, high: conversations.coupleHighId, ended: endedSql })
    .from(conversations)
    .where(and(eq(conversations.id, id), ofCouple(member.coupleId)));
  // Neither waits on the foreign-key checks of a read position or a reaction (key share).
  const [row] = await (lock ? query.for(lock) : query);
  if (!row) throw conversationNotFound();
  return { id: row.id, otherCoupleId: row.low === member.coupleId ? row.high : row.low, ended: row.ended };
}

/**
 * The member's conversation while it has not ended: what the four do in it (write, read, mute,
 * plan) stops when it ends (a block, a couple gone), so nothing of one couple moves for the other after.
 */
export async function openConversation(db: Db, member: ActingCouple, id: string, lock?: ConversationLock): Promise<MemberConversation> {
  const conversation = await memberConversation(db, member, id, lock);
  if (conversation.ended) throw conversationEndedError();
  return conversation;
}

export type MessageItem = {
  id: string;
  conversationId: string;
  body: string | null;
  photoUrl: string | null;
  author: { userId: string | null; firstName: string; coupleId: string | null; coupleName: string };
  createdAt: string;
  /** When its author last changed its words ('edited'); null when never. */
  editedAt: string | null;
  deleted: boolean;
  /** Filled for the thread (lib/messages/extras.ts); the inbox's preview carries none. */
  replyTo: MessageQuote | null;
  reactions: MessageReaction[];
  /** Its links are shown but not clickable (a low-trust couple's early message: lib/messages/plain-links.ts); absent otherwise. */
  plainLinks?: true;
};

export const author = alias(users, "author");
export const authorCouple = alias(couples, "author_couple");

/** A thread's rows leave as JSON (`threadRows`): a column added here with a custom decoder is decoded in `threadRowsOf` too. */
export const messageColumns = {
  id: messages.id,
  conversationId: messages.conversationId,
  seq: messages.seq,
  body: messages.body,
  photoUrl: messages.photoUrl,
  replyToId: messages.replyToId,
  editedAt: messages.editedAt,
  deletedAt: messages.deletedAt,
  createdAt: messages.createdAt,
  authorUserId: messages.authorUserId,
  authorFirstName: author.firstName,
  authorCoupleId: messages.authorCoupleId,
  authorCoupleName: authorCouple.coupleName,
};

/** Messages with their author's name and couple (left joins: a deleted member's messages stay). */
export const messageRows = (db: Db) =>
  db
    .select(messageColumns)
    .from(messages)
    .leftJoin(author, eq(author.id, messages.authorUserId))
    .leftJoin(authorCouple, eq(authorCouple.id, messages.authorCoupleId));

export type MessageRow = Awaited<ReturnType<ReturnType<typeof messageRows>["execute"]>>[number];

/**
 * Who a statement reads for: values, or (by session) SQL that finds the live session's person and
 * couple in the statement itself; `bySession` rows also carry the reader's account.
 */
export type StatementReader = { userId: SQL; coupleId: SQL; bySession: boolean };

/** Which messages a thread read takes: a condition on `messages`, newest first, at most `limit`. */
type ThreadSelection = { where: SQL; limit?: number | Placeholder };

/**
 * Messages as `viewerId` reads them in a thread, in one statement: the messages chosen first (a
 * CTE), then the message each answers (two joins on primary keys; null for none) and the reactions on all of
 * them, grouped once (./extras.ts `pageReactions`). The page leaves as one JSON array, newest
 * first (`threadRowsOf` reads it): a row per message of 19 columns cost the driver and Drizzle's
 * mapping more than the database's work. The statement answers one row, with no messages too;
 * `accountOf`: the reader whose account that row carries, by session (lib/auth/users.ts
 * `readerJoins`), else null; `detail`: the conversation's detail it carries too (`detailJson`).
 */
export function threadRows(
  db: Db,
  viewerId: string | SQL,
  selection: ThreadSelection,
  accountOf: SQL | null = null,
  detail: SQL<DetailRow | null> = sql`null`,
) {
  const chosen = messageRows(db).where(selection.where).orderBy(desc(messages.seq));
  const page = db.$with("thread_page").as(selection.limit === undefined ? chosen : chosen.limit(selection.limit));
  const reactions = pageReactions(db, viewerId, sql`select ${page.id} from ${page}`);
  const [readerUser, readerCouple] = readerJoins(accountOf);
  // The keys are ThreadJson's, written as literals (the code's own names, never input); the CTE
  // names each column by its own name.
  const key = (name: string) => sql.raw(`'${name}'`);
  const fields = Object.keys(messageColumns).map((name) => sql`${key(name)}, ${page[name as keyof typeof messageColumns]}`);
  const quote = Object.entries(quoteColumns).map(([name, column]) => sql`${key(name)}, ${column}`);
  const json = db
    .select({
      rows: sql`json_agg(json_build_object(
        ${sql.join(fields, sql`, `)},
        'quote', case when ${quoted.id} is not null then json_build_object(${sql.join(quote, sql`, `)}) end,
        'reactions', coalesce(${reactions.reactions}, '[]'::json)) order by ${page.seq} desc)`,
    })
    .from(page)
    .leftJoin(quoted, eq(quoted.id, page.replyToId))
    .leftJoin(quotedAuthor, eq(quotedAuthor.id, quoted.authorUserId))
    .leftJoin(reactions.cte, eq(reactions.messageId, page.id));
  const rows = sql<ThreadJson[] | null>`(${json})`;
  return db
    .with(page, reactions.cte)
    .select({ rows, account: readerAccountColumns(), detail })
    .from(sql`(values (1)) as one_row`)
    .leftJoin(...readerUser)
    .leftJoin(...readerCouple);
}

/** A message of a thread as `threadRows` reads it: its JSON, times as text. */
type ThreadJson = Omit<MessageRow, "editedAt" | "deletedAt" | "createdAt"> & {
  editedAt: string | null;
  deletedAt: string | null;
  createdAt: string;
  quote: QuoteRow | null;
  reactions: ReactionsJson;
};
export type ThreadRow = MessageRow & { quote: QuoteRow | null; reactions: ReactionsJson };

const dateOf = (text: string | null) => (text === null ? null : new Date(text));

/** The messages of a `threadRows` answer, newest first. */
export const threadRowsOf = (answer: { rows: ThreadJson[] | null } | undefined): ThreadRow[] =>
  (answer?.rows ?? []).map((row) => ({
    ...row,
    editedAt: dateOf(row.editedAt),
    deletedAt: dateOf(row.deletedAt),
    createdAt: new Date(row.createdAt),
  }));

/** A message as the API answers it: a deleted one carries no words and no photo (they are erased anyway). */
export function messageItem(row: MessageRow): MessageItem {
  const deleted = row.deletedAt !== null;
  return {
    id: row.id,
    conversationId: row.conversationId,
    body: deleted ? null : row.body,
    photoUrl: deleted ? null : row.photoUrl,
    author: {
      userId: row.authorUserId,
      firstName: row.authorFirstName ?? MESSAGE_TEXTS.deletedMember,
      coupleId: row.authorCoupleId,
      coupleName: row.authorCoupleName ?? MESSAGE_TEXTS.deletedCouple,
    },
    createdAt: row.createdAt.toISOString(),
    editedAt: deleted ? null : (row.editedAt?.toISOString() ?? null),
    deleted,
    replyTo: null,
    reactions: [],
  };
}

/**
 * Messages as the thread shows them: each with the message it answers and its reactions (read
 * with the rows), and whether its links are plain text (lib/messages/plain-links.ts, read only
 * when a message has a link).
 */
export async function threadMessages(db: Db, rows: readonly ThreadRow[]): Promise<MessageItem[]> {
  const plain = await plainLinkMessages(
    db,
    rows.filter((row) => row.deletedAt === null),
  );
  return rows.map((row) => ({
    ...messageItem(row),
    // A deleted message keeps nothing of what it was: no quote, no reactions.
    ...(row.deletedAt === null ? { replyTo: quoteOf(row.quote), reactions: reactionsOf(row.reactions) } : {}),
    ...(plain.has(row.id) ? { plainLinks: true as const } : {}),
  }));
}

export async function messageById(db: Db, viewerId: string, id: string): Promise<MessageItem | null> {
  const [answer] = await threadRows(db, viewerId, { where: eq(messages.id, id) });
  return (await threadMessages(db, threadRowsOf(answer)))[0] ?? null;
}

/** A message of the conversation, or 404 (one of another conversation too). */
export async function messageIn(
  db: Db,
  conversationId: string,
  messageId: string,
): Promise<{ id: string; seq: number; authorUserId: string | null }> {
  const [row] = await db
    .select({ id: messages.id, seq: messages.seq, authorUserId: messages.authorUserId })
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.conversationId, conversationId)));
  if (!row) throw new AppError("NOT_FOUND", MESSAGE_TEXTS.messageNotFound);
  return row;
}

/**
 * SQL: one person's unread messages in a conversation (given as SQL), counted up to
 * UNREAD_COUNT_CAP: others' messages after their read position that are not deleted. A person's
 * own messages are never unread for them, nor read to be skipped: each other author's live
 * messages after the position are read on their own (messages_conversation_author_seq_idx, the
 * conversation's few authors found one probe each), so a reader who wrote thousands since costs
 * what one who wrote nothing does (their live stream recounts on every send of theirs).
 */
export const unreadIn = (conversationId: SQL | string, userId: SQL | string): SQL<number> => {
  const live = sql`m.conversation_id = ${conversationId} and m.deleted_at is null`;
  const position = sql`coalesce((select r.last_read_seq from ${conversationReads} r where r.user_id = ${userId} and r.conversation_id = ${conversationId}), 0)`;
  return sql<number>`(select count(*)::int from (
  with recursive unread_authors(id) as (
    (select m.author_user_id from ${messages} m where ${live} and m.author_user_id is not null order by m.author_user_id limit 1)
    union all
    select (select m.author_user_id from ${messages} m where ${live} and m.author_user_id > a.id order by m.author_user_id limit 1)
    from unread_authors a where a.id is not null
  )
  (select 1 from unread_authors a cross join lateral (
      select 1 from ${messages} m where ${live} and m.author_user_id = a.id and m.seq > ${position} limit ${UNREAD_COUNT_CAP}) theirs
    where a.id is not null and a.id <> ${userId})
  union all
  (select 1 from ${messages} m where ${live} and m.author_user_id is null and m.seq > ${position} limit ${UNREAD_COUNT_CAP})
  limit ${UNREAD_COUNT_CAP}) unread)`;
};

export async function conversationUnread(db: Db, userId: string, conversationId: string): Promise<number> {
  const [row] = await db
    .select({ unread: unreadIn(sql`${conversations.id}`, userId) })
    .from(conversations)
    .where(eq(conversations.id, conversationId));
  return row?.unread ?? 0;
}

/**
 * `GET /api/messages/unread-count`: the person's unread messages over all their couple's
 * conversations (muted ones too), not counting ended ones: nobody can read further in those.
 */
export async function unreadTotal(db: Db, member: Pick<ActingCouple, "userId" | "coupleId">): Promise<number> {
  const [row] = await db
    .select({ unread: sql<number>`coalesce(sum(${unreadIn(sql`${conversations.id}`, member.userId)}), 0)::int` })
    .from(conversations)
    .where(and(ofCouple(member.coupleId), sql`not ${endedSql}`));
  return row?.unread ?? 0;
}

export type ConversationDetail = {
  id: string;
  couples: {
    id: string;
    coupleName: string;
    profileImageUrl: string | null;
    /** 'Photo verified' or 'Both photo verified' (lib/verification/rules.ts), or null. */
    photoBadge: PhotoBadge | null;
    partners: { userId: string; firstName: string; avatarUrl: string | null }[];
  }[];
  readPositions: { userId: string; firstName: string; lastReadMessageId: string | null }[];
  ended: boolean;
  /** Whether the caller muted it (per person). */
  muted: boolean;
};

type DetailCoupleJson = {
  id: string;
  coupleName: string;
  profileImageUrl: string | null;
  photoVerifiedPartners: number;
  partners: { userId: string; firstName: string; avatarUrl: string | null }[];
};

/** What the detail reads of a conversation row; `couples` and `reads` as JSON. */
export type DetailRow = {
  ended: boolean;
  couples: DetailCoupleJson[] | null;
  reads: { userId: string; lastReadMessageId: string | null; muted: boolean }[] | null;
};

/**
 * The conversation with both couples (the reader's first, each's first partner first; the other's
 * photos only while the two stand together) and every read position, over `conversations` as the
 * reader's couple (`coupleId`) sees it.
 */
function detailColumns(coupleId: SQL) {
  // The other couple's photos while the two stand together (a block or a suspension since: its names only).
  const photo = (url: SQL) => sql`case when ${couples.id} = ${coupleId} or ${standTogether(coupleId, couples.id)} then ${url} end`;
  const partner = sql`json_build_object('userId', ${users.id}, 'firstName', ${users.firstName}, 'avatarUrl', ${photo(sql`${users.avatarUrl}`)})`;
  const partners = sql`(select json_agg(${partner} order by ${users.id} = ${couples.partner1Id} desc) from ${users}
    where ${users.id} in (${couples.partner1Id}, ${couples.partner2Id}))`;
  return {
    ended: endedSql,
    couples: sql<DetailCoupleJson[] | null>`(select json_agg(json_build_object(
        'id', ${couples.id}, 'coupleName', ${couples.coupleName}, 'profileImageUrl', ${photo(sql`${couples.profileImageUrl}`)},
        'photoVerifiedPartners', ${couples.photoVerifiedPartners}, 'partners', coalesce(${partners}, '[]'::json)
      ) order by ${couples.id} = ${coupleId} desc) from ${couples} where ${couples.id} in (${conversations.coupleLowId}, ${conversations.coupleHighId}))`,
    reads: sql<DetailRow["reads"]>`(select json_agg(json_build_object(
        'userId', ${conversationReads.userId}, 'lastReadMessageId', ${conversationReads.lastReadMessageId},
        'muted', ${conversationReads.mutedAt} is not null
      )) from ${conversationReads} where ${conversationReads.conversationId} = ${conversations.id})`,
  };
}

/** Prepared: the detail's one statement, which checks the membership itself (./access.ts): no row is not the reader's conversation. */
const detailStatement = preparedPer((db) => {
  const coupleId = placeholderSql("coupleId");
  return db
    .select(detailColumns(coupleId))
    .from(conversations)
    .where(and(eq(conversations.id, sql.placeholder("id")), ofCouple(coupleId)))
    .prepare("conversation_detail");
});

/**
 * SQL: the detail as one JSON value, for a statement that reads it beside the thread's page (the
 * conversation screen's opening, ./thread.ts); null when the conversation is not the reader's.
 */
export const detailJson = (coupleId: SQL, id: SQL): SQL<DetailRow | null> =>
  sql<DetailRow | null>`(select ${jsonObject(detailColumns(coupleId))} from ${conversations} where ${and(eq(conversations.id, id), ofCouple(coupleId))})`;

/** `GET /api/conversations/{id}`: both couples with their partners (the caller's first), everyone's read position, ended, muted. */
export async function conversationDetail(db: Db, member: ActingCouple, id: string): Promise<ConversationDetail> {
  const [row] = await detailStatement(db).execute({ id, coupleId: member.coupleId });
  if (!row) throw conversationNotFound();
  return detailOf(member, id, row);
}

/** The detail as the caller sees it, from its row (`detailColumns`). */
export function detailOf(member: Pick<ActingCouple, "userId">, id: string, row: DetailRow): ConversationDetail {
  const readOf = new Map((row.reads ?? []).map((read) => [read.userId, read]));
  const ordered = row.couples ?? [];
  return {
    id,
    couples: ordered.map(({ photoVerifiedPartners, ...couple }) => ({ ...couple, photoBadge: photoBadge(photoVerifiedPartners) })),
    readPositions: ordered.flatMap((couple) =>
      couple.partners.map((person) => ({
        userId: person.userId,
        firstName: person.firstName,
        lastReadMessageId: readOf.get(person.userId)?.lastReadMessageId ?? null,
      })),
    ),
    ended: row.ended,
    muted: readOf.get(member.userId)?.muted ?? false,
  };
}

/**
 * Inside the caller's transaction: key-shares the four people of the message's conversation (in id
 * order, holdPeopleOfConversations), before the caller locks the message. A write to a message tells all
 * four at its commit (their live rows key-share them), and a member's deletion takes their row
 * before it erases their messages and its reactions go with it (lib/account/deletion.ts): held
 * after the message, the write would wait on that row holding what the deletion takes next.
 * A member's own write names their couple (`memberCouple`): anyone else's holds nobody before its 404.
 */
export async function holdMembersOfMessage(tx: Db, messageId: string, memberCouple?: string): Promise<void> {
  await holdPeopleOfConversations(
    tx,
    sql`${tx.select({ id: messages.conversationId }).from(messages).where(eq(messages.id, messageId))}`,
    memberCouple,
  );
}

/**
 * The people of the two couples now of each conversation `which` (SQL on `conversations`) picks,
 * partners who left not among them: in one statement, however many conversations it picks.
 */
export async function membersOfConversations(db: Db, which: SQL): Promise<{ conversationId: string; userId: string; coupleId: string }[]> {
  const partners = await db
    .select({ conversationId: conversations.id, coupleId: couples.id, p1: couples.partner1Id, p2: couples.partner2Id })
    .from(conversations)
    .innerJoin(couples, or(eq(couples.id, conversations.coupleLowId), eq(couples.id, conversations.coupleHighId)))
    .where(which);
  return partners.flatMap(({ conversationId, coupleId, p1, p2 }) =>
    (p2 ? [p1, p2] : [p1]).map((userId) => ({ conversationId, userId, coupleId })),
  );
}

/** The people of the two couples now (partners who left are not members any more), with when each muted it. */
export async function membersOf(db: Db, conversationId: string): Promise<{ userId: string; coupleId: string; mutedAt: Date | null }[]> {
  const people = (await membersOfConversations(db, eq(conversations.id, conversationId))).map(({ userId, coupleId }) => ({
    userId,
    coupleId,
  }));
  if (people.length === 0) return [];
  const muted = await db
    .select({ userId: conversationReads.userId, mutedAt: conversationReads.mutedAt })
    .from(conversationReads)
    .where(
      and(
        eq(conversationReads.conversationId, conversationId),
        inArray(
          conversationReads.userId,
          people.map(({ userId }) => userId),
        ),
      ),
    );
  const mutedOf = new Map(muted.map((row) => [row.userId, row.mutedAt]));
  return people.map((person) => ({ ...person, mutedAt: mutedOf.get(person.userId) ?? null }));
}

/**
 * A reported message as the reporter may see it: its author's couple and its words (none for a
 * photo alone) while the reporter is one of the conversation's members and the message is not
 * deleted; else null.
 */
export async function reportedMessage(
  db: Db,
  reporterCoupleId: string,
  messageId: string,
): Promise<{ coupleId: string; authorUserId: string | null; body: string | null } | null> {
  const [row] = await db
    .select({ coupleId: messages.authorCoupleId, authorUserId: messages.authorUserId, body: messages.body })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(and(eq(messages.id, messageId), isNull(messages.deletedAt), ofCouple(reporterCoupleId)));
  return row?.coupleId ? { coupleId: row.coupleId, authorUserId: row.authorUserId, body: row.body } : null;
}

/** How many messages before a reported one a moderator may open (and nothing else of the conversation). */
export const REPORT_CONTEXT = 10;

/**
 * Reported messages for moderators, each with `before` messages before it (none in the queue;
 * REPORT_CONTEXT when a moderator opens it), oldest first (the words even when deleted later: erased is erased).
 */
export async function reportedMessages(db: Db, ids: readonly string[], before = 0): Promise<Map<string, MessageItem[]>> {
  const found = new Map<string, MessageItem[]>();
  // The queue's case (the message alone): one read for them all, not two per report.
  if (before === 0) {
    if (ids.length === 0) return found;
    for (const row of await messageRows(db).where(inArray(messages.id, [...ids]))) found.set(row.id, [messageItem(row)]);
    return found;
  }
  for (const id of ids) {
    const [target] = await db
      .select({ conversationId: messages.conversationId, seq: messages.seq })
      .from(messages)
      .where(eq(messages.id, id));
    if (!target) continue;
    const rows = await messageRows(db)
      .where(and(eq(messages.conversationId, target.conversationId), sql`${messages.seq} <= ${target.seq}`))
      .orderBy(desc(messages.seq))
      .limit(before + 1);
    found.set(id, rows.reverse().map(messageItem));
  }
  return found;
}

/** A page of the person's own messages, oldest first, after the message `afterId` (the data export). */
export async function ownMessages(db: Db, userId: string, afterId: string | undefined, size: number) {
  return (
    db
      .select({
        id: messages.id,
        conversationId: messages.conversationId,
        body: messages.body,
        photoUrl: messages.photoUrl,
        createdAt: messages.createdAt,
        deletedAt: messages.deletedAt,
      })
      .from(messages)
      // messages_author_idx, (created_at) in order, (id) sorted within a page's equal times.
      .where(and(eq(messages.authorUserId, userId), afterRow(messages, afterId, "asc")))
      .orderBy(...keysetOrder(messages, "asc"))
      .limit(size)
  );
}

/**
 * A page of the person's own reactions to messages, oldest first, after the reaction `after` (the
 * data export's pages). The table has no id: its key orders reactions of one time (the person's
 * own id, the same for all, then the message and the kind).
 */
export async function ownMessageReactions(db: Db, userId: string, after: { messageId: string; kind: string } | undefined, size: number) {
  const key = [messageReactions.userId, messageReactions.messageId, messageReactions.kind] as const;
  return (
    db
      .select({ messageId: messageReactions.messageId, kind: messageReactions.kind, createdAt: messageReactions.createdAt })
      .from(messageReactions)
      // message_reactions_user_created_idx
      .where(
        and(eq(messageReactions.userId, userId), afterKey(messageReactions, key, after && [userId, after.messageId, after.kind], "asc")),
      )
      .orderBy(...keyOrder(messageReactions, key, "asc"))
      .limit(size)
  );
}

/** Where the person read up to in each conversation, and which they muted (the data export). */
export async function ownConversationReads(db: Db, userId: string) {
  return db
    .select({
      conversationId: conversationReads.conversationId,
      lastReadMessageId: conversationReads.lastReadMessageId,
      mutedAt: conversationReads.mutedAt,
    })
    .from(conversationReads)
    .where(eq(conversationReads.userId, userId));
}
