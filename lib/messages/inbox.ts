import "server-only";
import { and, desc, eq, sql } from "drizzle-orm";
import { alias, unionAll } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { placeholderSql, preparedPer } from "@/db/prepared";
import { couples, conversations, messages } from "@/db/schema";
import { liveSessionUser, type SessionRead } from "@/lib/auth/sessions";
import { readerAccountColumns, readerJoins, readerOf, sessionWithAccount } from "@/lib/auth/users";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { cursorAfter, readCursor, rowsAfter, type Cursor } from "@/lib/pagination/cursor";
import { keysetPage, type KeysetPage } from "@/lib/pagination/page";
import { excerpt } from "@/lib/plain-text";
import { coupleOfUser } from "@/lib/safety/blocks";
import { standTogether } from "@/lib/safety/visibility";
import {
  author,
  authorCouple,
  endedSql,
  messageColumns,
  messageItem,
  unreadIn,
  type MessageItem,
  type MessageRow,
  type StatementReader,
} from "./queries";
import { INBOX_PAGE, MESSAGE_TEXTS } from "./rules";
import type { InboxQuery } from "./schemas";

type InboxCouple = { id: string | null; coupleName: string; profileImageUrl: string | null };
export type InboxItem = {
  id: string;
  couple: InboxCouple;
  /** The newest message as its row's one line shows it: its words cut to their start (a message holds up to 4,000 characters). */
  lastMessage: MessageItem | null;
  unreadCount: number;
  ended: boolean;
  updatedAt: string;
};
type InboxPage = KeysetPage<InboxItem>;

const other = alias(couples, "other_couple");

/**
 * The inbox's statement: the couple's conversations, latest activity first. Each side of the pair
 * has its own index (couple_low_id or couple_high_id, then last_activity_at), so the page is the
 * merge of two index range scans of `limit + 1` rows; only those rows are then joined to the other
 * couple, the last message and its author, and the person's unread count. One round trip: the
 * inbox's time is mostly spent waiting on the database. By session, each row also carries the
 * reader's account (flags and acting couple), so the call needs no other read.
 */
function inboxStatement(db: Db, reader: StatementReader, after: Cursor | null) {
  const [readerUser, readerCouple] = readerJoins(reader.bySession ? reader.userId : null);
  const side = (column: typeof conversations.coupleLowId | typeof conversations.coupleHighId) =>
    db
      .select({ id: conversations.id, at: conversations.lastActivityAt })
      .from(conversations)
      .where(and(eq(column, reader.coupleId), after ? rowsAfter(conversations.lastActivityAt, conversations.id, after, "desc") : undefined))
      .orderBy(desc(conversations.lastActivityAt), desc(conversations.id))
      .limit(INBOX_PAGE + 1);
  const page = unionAll(side(conversations.coupleLowId), side(conversations.coupleHighId))
    .orderBy(desc(conversations.lastActivityAt), desc(conversations.id))
    .limit(INBOX_PAGE + 1)
    .as("inbox_page");
  return db
    .select({
      id: conversations.id,
      ended: endedSql,
      updatedAt: conversations.lastActivityAt,
      otherId: other.id,
      otherName: other.coupleName,
      // A couple that no longer stands with the reader's (a block, a suspension) keeps its name, not its photo.
      otherImage: sql<string | null>`case when ${standTogether(reader.coupleId, other.id)} then ${other.profileImageUrl} end`,
      unread: sql<number>`case when ${endedSql} then 0 else ${unreadIn(sql`${conversations.id}`, reader.userId)} end`,
      last: messageColumns,
      account: readerAccountColumns(),
    })
    .from(page)
    .innerJoin(conversations, eq(conversations.id, page.id))
    .leftJoin(
      other,
      sql`${other.id} = case when ${conversations.coupleLowId} = ${reader.coupleId} then ${conversations.coupleHighId} else ${conversations.coupleLowId} end`,
    )
    .leftJoin(messages, eq(messages.id, conversations.lastMessageId))
    .leftJoin(author, eq(author.id, messages.authorUserId))
    .leftJoin(authorCouple, eq(authorCouple.id, messages.authorCoupleId))
    .leftJoin(...readerUser)
    .leftJoin(...readerCouple)
    .orderBy(desc(page.at), desc(page.id));
}

/** The start of a message's words, as one line shows them (the same cut as a forum list's rows). */
const preview = (message: MessageItem): MessageItem => (message.body === null ? message : { ...message, body: excerpt(message.body) });

type InboxRow = Awaited<ReturnType<ReturnType<typeof inboxStatement>["execute"]>>[number];

const cursorContext = (coupleId: string) => `inbox:${coupleId}`;

function inboxPage(coupleId: string, rows: readonly InboxRow[]): InboxPage {
  return keysetPage(
    rows,
    INBOX_PAGE,
    (row) => ({
      id: row.id,
      couple: { id: row.otherId, coupleName: row.otherName ?? MESSAGE_TEXTS.deletedCouple, profileImageUrl: row.otherImage },
      // Left-joined: every column null when the conversation has no message yet.
      lastMessage: row.last?.id ? preview(messageItem(row.last as MessageRow)) : null,
      unreadCount: row.unread,
      ended: row.ended,
      updatedAt: row.updatedAt.toISOString(),
    }),
    (last) => cursorAfter(cursorContext(coupleId), { sortKey: last.updatedAt, id: last.id }),
  );
}

/** The first page by member, prepared: the Messages screen (every conversation opened under it) reads it. */
const firstPageOfMember = preparedPer((db) => {
  return inboxStatement(db, { userId: placeholderSql("uid"), coupleId: placeholderSql("coupleId"), bySession: false }, null).prepare(
    "inbox_of_member",
  );
});

/** `GET /api/conversations` (and the Messages screen): a keyset page of the couple's conversations. */
export async function inbox(db: Db, member: ActingCouple, cursorText: string | undefined): Promise<InboxPage> {
  const after = readCursor(cursorContext(member.coupleId), cursorText, MESSAGE_TEXTS.cursorInvalid);
  const rows = after
    ? await inboxStatement(db, { userId: sql`${member.userId}`, coupleId: sql`${member.coupleId}`, bySession: false }, after)
    : await firstPageOfMember(db).execute({ uid: member.userId, coupleId: member.coupleId });
  return inboxPage(member.coupleId, rows);
}

/** The first page by session, prepared: every opening of the Messages screen on the app asks. */
const firstPageBySession = preparedPer((db) => {
  const userId = liveSessionUser();
  return inboxStatement(db, { userId, coupleId: coupleOfUser(userId), bySession: true }, null).prepare("inbox_by_session");
});

/**
 * The inbox call's session read (lib/http/route.ts): the first page in the session's own round
 * trip, with the reader's account for the route's checks. The value is null when nothing was read
 * that way (an empty inbox, a later page, whose cursor is signed for the reader's couple, a query
 * that does not parse, or no live session: the session's own read tells): the handler then reads
 * the page after the checks, as `inbox`.
 */
export const inboxBySession: SessionRead<InboxPage | null, InboxQuery> = async (db, sessionId, input) => {
  const query = await input();
  if (query && query.cursor === undefined) {
    const rows = await firstPageBySession(db).execute({ sid: sessionId, now: new Date().toISOString() });
    const reader = readerOf(rows[0]?.account);
    const couple = reader?.account.couple;
    if (reader && couple) return { ...reader, value: inboxPage(couple.coupleId, rows) };
  }
  const found = await sessionWithAccount(db, sessionId);
  return found ? { ...found, value: null } : null;
};
