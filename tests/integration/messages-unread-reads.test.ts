import { sql } from "drizzle-orm";
import type postgres from "postgres";
import { describe, expect, it } from "vitest";
import { getDb, type Db } from "@/db/client";
import { conversationUnread, unreadTotal } from "@/lib/messages/queries";
import { UNREAD_COUNT_CAP } from "@/lib/messages/rules";
import { connected } from "../support/messages";
import { planNodes, recordingStatements, rowsRead, type PlanNode } from "../support/query-plan";
import { onPostgres } from "../support/test-database";

/**
 * What a conversation's unread count reads of a person who wrote much since they last read: the
 * others' messages after their position (up to UNREAD_COUNT_CAP), never their own stream of
 * messages, which every count (their own live stream recounts on each send) walked past row by
 * row. A file of its own: the plans are of this file's messages alone.
 */

/** The reader's own messages after their read position: a long monologue. */
const OWN = 15_000;

describe("a conversation's unread count", () => {
  it.skipIf(!onPostgres())("reads the others' messages up to the cap, never the reader's own, however many they wrote", async () => {
    const db = await getDb();
    const { one, two, conversationId } = await connected();
    const write = (authorUserId: string, coupleId: string, n: number, deleted = false) =>
      db.execute(sql`insert into messages (conversation_id, author_user_id, author_couple_id, body, deleted_at)
        select ${conversationId}::uuid, ${authorUserId}::uuid, ${coupleId}::uuid, case when ${deleted} then null else 'Words ' || g end,
          case when ${deleted} then now() end
        from generate_series(1, ${n}) g`);
    await write(two.a.userId, two.coupleId, 2);
    await write(one.a.userId, one.coupleId, OWN);
    // Their partner's count for them (their couple's messages are not their own); deleted ones do not.
    await write(one.b.userId, one.coupleId, 1);
    await write(two.b.userId, two.coupleId, 40, true);
    await write(two.b.userId, two.coupleId, 2);
    await db.execute(sql`vacuum analyze messages`);

    const client = (db as unknown as { $client: postgres.Sql }).$client;
    /** The messages the one statement `count` sends reads, as Postgres ran it. */
    async function messagesRead(count: (db: Db) => Promise<unknown>): Promise<number> {
      const { logging, logged } = recordingStatements(db);
      await count(logging);
      expect(logged).toHaveLength(1);
      const [row] = await client.unsafe(`explain (analyze, format json) ${logged[0]!.query}`, logged[0]!.params as never[]);
      const plan = (row!["QUERY PLAN"] as { Plan: PlanNode }[])[0]!.Plan;
      const indexes = new Set(planNodes(plan).flatMap((node) => (node["Relation Name"] === "messages" ? [node["Index Name"]] : [])));
      expect([...indexes], "each author's live messages, by the index of them").toEqual(["messages_conversation_author_seq_idx"]);
      return rowsRead(plan, (node) => node["Relation Name"] === "messages");
    }
    const member = { userId: one.a.userId, coupleId: one.coupleId };
    expect(await conversationUnread(db, one.a.userId, conversationId)).toBe(5);
    expect(await unreadTotal(db, member)).toBe(5);
    expect(await messagesRead((db) => conversationUnread(db, one.a.userId, conversationId)), "a conversation's count").toBeLessThan(50);
    expect(await messagesRead((db) => unreadTotal(db, member)), "the Messages badge").toBeLessThan(50);

    // The others' many: counted up to the cap, no further.
    await write(two.a.userId, two.coupleId, 3 * UNREAD_COUNT_CAP);
    await db.execute(sql`vacuum analyze messages`);
    expect(await conversationUnread(db, one.a.userId, conversationId)).toBe(UNREAD_COUNT_CAP);
    expect(await messagesRead((db) => conversationUnread(db, one.a.userId, conversationId))).toBeLessThan(UNREAD_COUNT_CAP + 50);
    // Their partner's count reads one.a's monologue as the others': up to the cap.
    expect(await conversationUnread(db, one.b.userId, conversationId)).toBe(UNREAD_COUNT_CAP);
    expect(await messagesRead((db) => conversationUnread(db, one.b.userId, conversationId))).toBeLessThan(UNREAD_COUNT_CAP + 50);
  });
});
