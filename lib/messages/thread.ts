import "server-only";
import { and, eq, exists, lt, sql, type Placeholder, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { placeholderSql, preparedPer } from "@/db/prepared";
import { conversations, messages } from "@/db/schema";
import { liveSessionUser, type SessionRead } from "@/lib/auth/sessions";
import { readerOf, sessionWithAccount } from "@/lib/auth/users";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { coupleOfUser } from "@/lib/safety/blocks";
import { ofCouple } from "./access";
import {
  conversationNotFound,
  detailJson,
  detailOf,
  memberConversation,
  messageIn,
  threadMessages,
  threadRows,
  threadRowsOf,
  type ConversationDetail,
  type DetailRow,
  type MessageItem,
  type StatementReader,
  type ThreadRow,
} from "./queries";
import type { ThreadQuery } from "./schemas";

type ThreadPage = { data: MessageItem[]; pagination: { hasMore: boolean } };

/** The message a thread's page is read before. */
const anchor = alias(messages, "anchor");

/** Which page a statement reads: values, or (prepared by session) placeholders. */
type Wanted = { conversationId: SQL; before: SQL | null; limit: number | Placeholder };

/**
 * A page of the thread, newest first, `limit + 1` messages (messages_conversation_seq_key read
 * backwards): one statement checks the membership (./access.ts), finds the `before` message and
 * reads the page with its quotes and reactions. No message: an empty thread, or not the reader's
 * conversation, or a `before` that is not in it; the caller tells which.
 */
function threadStatement(db: Db, reader: StatementReader, wanted: Wanted, detail?: SQL<DetailRow | null>) {
  const isMember = db
    .select({ one: sql`1` })
    .from(conversations)
    .where(and(eq(conversations.id, wanted.conversationId), ofCouple(reader.coupleId)));
  const beforeSeq = wanted.before
    ? db
        .select({ seq: anchor.seq })
        .from(anchor)
        .where(and(eq(anchor.id, wanted.before), eq(anchor.conversationId, wanted.conversationId)))
    : null;
  const where = and(
    eq(messages.conversationId, wanted.conversationId),
    exists(isMember),
    beforeSeq ? lt(messages.seq, sql`(${beforeSeq})`) : undefined,
  )!;
  return threadRows(db, reader.userId, { where, limit: wanted.limit }, reader.bySession ? reader.userId : null, detail);
}

/** The page as the API answers it, oldest first; `hasMore`: older messages remain. */
async function pageOf(db: Db, rows: readonly ThreadRow[], limit: number): Promise<ThreadPage> {
  const page = rows.slice(0, limit).reverse();
  return { data: await threadMessages(db, page), pagination: { hasMore: rows.length > limit } };
}

/**
 * A page prepared for a reader (the newest, or before a message): by session, the thread call's
 * own round trip (opening a conversation on the app); by member, the conversation screen and the
 * thread call's read after its checks.
 */
const preparedPage = (reader: "session" | "member", before: boolean) =>
  preparedPer((db) => {
    const userId = reader === "session" ? liveSessionUser() : placeholderSql("uid");
    const coupleId = reader === "session" ? coupleOfUser(userId) : placeholderSql("coupleId");
    return threadStatement(
      db,
      { userId, coupleId, bySession: reader === "session" },
      { conversationId: placeholderSql("cid"), before: before ? placeholderSql("before") : null, limit: sql.placeholder("limit") },
    ).prepare(`thread${before ? "_before" : ""}_${reader === "session" ? "by_session" : "of_member"}`);
  });
const newestBySession = preparedPage("session", false);
const beforeBySession = preparedPage("session", true);
const newestOfMember = preparedPage("member", false);
const beforeOfMember = preparedPage("member", true);

/**
 * `GET /api/conversations/{id}/messages` and the conversation screen: the newest `limit` messages,
 * or those before a message. Only an empty page reads again, to answer a conversation that is not
 * the member's, or a `before` that is not in it, with 404.
 */
export async function threadPage(db: Db, member: ActingCouple, conversationId: string, query: ThreadQuery): Promise<ThreadPage> {
  const [answer] = await (query.before ? beforeOfMember : newestOfMember)(db).execute({
    uid: member.userId,
    coupleId: member.coupleId,
    cid: conversationId,
    before: query.before,
    limit: query.limit + 1,
  });
  const rows = threadRowsOf(answer);
  if (rows.length === 0) {
    await memberConversation(db, member, conversationId);
    if (query.before) await messageIn(db, conversationId, query.before);
  }
  return pageOf(db, rows, query.limit);
}

/** Prepared: the conversation screen's opening, its detail read beside its newest page. */
const openingOfMember = preparedPer((db) => {
  const coupleId = placeholderSql("coupleId");
  const conversationId = placeholderSql("cid");
  return threadStatement(
    db,
    { userId: placeholderSql("uid"), coupleId, bySession: false },
    { conversationId, before: null, limit: sql.placeholder("limit") },
    detailJson(coupleId, conversationId),
  ).prepare("conversation_opening");
});

/**
 * The conversation screen's first paint in one statement: the detail (`conversationDetail`'s) and
 * the newest `limit` messages. No detail: not the member's conversation (404).
 */
export async function conversationOpening(
  db: Db,
  member: ActingCouple,
  conversationId: string,
  limit: number,
): Promise<{ conversation: ConversationDetail; page: ThreadPage }> {
  const [answer] = await openingOfMember(db).execute({
    uid: member.userId,
    coupleId: member.coupleId,
    cid: conversationId,
    limit: limit + 1,
  });
  if (!answer?.detail) throw conversationNotFound();
  return { conversation: detailOf(member, conversationId, answer.detail), page: await pageOf(db, threadRowsOf(answer), limit) };
}

/**
 * The thread call's session read (lib/http/route.ts): the page in the session's own round trip,
 * with the reader's account for the route's checks. The value is null when no message was read
 * that way (an empty thread, nothing before `before`, not the reader's conversation or a `before`
 * not in it): the handler then reads after the checks, as `threadPage`, which answers what is not
 * the member's with 404. Input or params that do not parse read the session alone (the route
 * answers 400), as does a session the statement did not find live (none: the route answers 401).
 */
export const threadBySession: SessionRead<ThreadPage | null, ThreadQuery, { id: string }> = async (db, sessionId, input, params) => {
  const [query, where] = await Promise.all([input(), params()]);
  if (query && where) {
    const statement = (query.before ? beforeBySession : newestBySession)(db);
    const [answer] = await statement.execute({
      sid: sessionId,
      now: new Date().toISOString(),
      cid: where.id,
      before: query.before,
      limit: query.limit + 1,
    });
    const reader = readerOf(answer?.account);
    const rows = threadRowsOf(answer);
    if (reader) return { ...reader, value: rows.length ? await pageOf(db, rows, query.limit) : null };
  }
  const found = await sessionWithAccount(db, sessionId);
  return found ? { ...found, value: null } : null;
};
