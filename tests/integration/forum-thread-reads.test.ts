import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, type Db } from "@/db/client";
import { readPost, readReply, readThread } from "@/lib/forum/queries";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { forumCouple, seedPosts } from "../support/forum";
import { recordingStatements, rowsRead, type PlanNode } from "../support/query-plan";
import { onPostgres } from "../support/test-database";

/**
 * What one page of a thread, and one post or reply, read of a long thread's reactions and
 * mentions: those of what they show, never every one the thread holds (a file of its own: the
 * plans are of this file's rows alone).
 */

const REPLIES = 1_500;

describe("a long thread's reactions and mentions", () => {
  it.skipIf(!onPostgres())("are read for what a read shows: the page's replies, or the one post or reply", async () => {
    const db = await getDb();
    const author = await forumCouple();
    const reader = await forumCouple();
    const named = await forumCouple();
    const [post] = await seedPosts(author.coupleId, author.a.userId, 1);
    await db.execute(sql`insert into forum_replies (post_id, author_user_id, couple_id, body, created_at)
      select ${post!.id}::uuid, ${author.b.userId}::uuid, ${author.coupleId}::uuid, 'Reply ' || g, now() - interval '1 day' + g * interval '1 second'
      from generate_series(1, ${REPLIES}) g`);
    await db.execute(sql`update forum_posts set reply_count = ${REPLIES} where id = ${post!.id}`);
    await db.execute(sql`insert into forum_reactions (post_id, reply_id, user_id, couple_id, kind)
      select post_id, id, ${reader.a.userId}::uuid, ${reader.coupleId}::uuid, 'heart' from forum_replies where post_id = ${post!.id}`);
    await db.execute(sql`insert into forum_reactions (post_id, reply_id, user_id, couple_id, kind)
      values (${post!.id}, null, ${reader.a.userId}, ${reader.coupleId}, 'heart')`);
    await db.execute(sql`insert into forum_mentions (post_id, reply_id, mentioned_couple_id)
      select post_id, id, ${named.coupleId}::uuid from forum_replies where post_id = ${post!.id}`);
    // Two of the first replies are hidden by reports: the reader's page is the first three shown.
    await db.execute(sql`update forum_replies set hidden_at = now() where post_id = ${post!.id} and body in ('Reply 2', 'Reply 3')`);
    await db.execute(sql`vacuum analyze forum_reactions`);
    await db.execute(sql`vacuum analyze forum_mentions`);
    await db.execute(sql`vacuum analyze forum_replies`);

    const actor = { userId: reader.a.userId, coupleId: reader.coupleId, partnerIds: [reader.a.userId, reader.b.userId] } as ActingCouple;
    const client = (db as unknown as { $client: import("postgres").Sql }).$client;
    /** The rows of `table` the statements `read` sends read, as Postgres ran them. */
    async function readOf(table: string, read: (db: Db) => Promise<unknown>): Promise<number> {
      const { logging, logged } = recordingStatements(db);
      await read(logging);
      let total = 0;
      for (const statement of logged.filter((one) => one.query.includes(`"${table}"`))) {
        const [row] = await client.unsafe(`explain (analyze, format json) ${statement.query}`, statement.params as never[]);
        const plan = (row!["QUERY PLAN"] as { Plan: PlanNode }[])[0]!.Plan;
        total += rowsRead(plan, (node) => node["Relation Name"] === table);
      }
      return total;
    }

    // The answers are right: the page's replies (those shown) each with their one reaction and mention.
    const page = await readThread(db, actor, post!.id, { limit: 3 });
    expect(page.post.reactions.heart).toBe(1);
    expect(page.replies.map((reply) => [reply.body, reply.reactions.heart, reply.myReactions, reply.mentions.length])).toEqual([
      ["Reply 1", 1, ["heart"], 1],
      ["Reply 4", 1, ["heart"], 1],
      ["Reply 5", 1, ["heart"], 1],
    ]);
    const next = await readThread(db, actor, post!.id, { limit: 2, cursor: page.pagination.nextCursor! });
    expect(next.replies.map((reply) => [reply.body, reply.reactions.heart, reply.mentions.length])).toEqual([
      ["Reply 6", 1, 1],
      ["Reply 7", 1, 1],
    ]);
    const one = await readReply(db, actor, page.replies[1]!.id);
    expect([one!.body, one!.reactions.heart, one!.myReactions, one!.mentions.length]).toEqual(["Reply 4", 1, ["heart"], 1]);
    expect((await readPost(db, actor, post!.id)).reactions.heart).toBe(1);

    // What each read took of the thread's 1,501 reactions and 1,500 mentions.
    const bound = 50;
    const firstPage = (db: Db) => readThread(db, actor, post!.id, { limit: 3 });
    const laterPage = (db: Db) => readThread(db, actor, post!.id, { limit: 2, cursor: page.pagination.nextCursor! });
    const oneReply = (db: Db) => readReply(db, actor, page.replies[1]!.id);
    const onePost = (db: Db) => readPost(db, actor, post!.id);
    for (const [name, read] of [
      ["a thread's first page", firstPage],
      ["a thread's later page", laterPage],
      ["one reply", oneReply],
      ["one post", onePost],
    ] as const) {
      expect(await readOf("forum_reactions", read), `${name}: reactions`).toBeLessThan(bound);
      expect(await readOf("forum_mentions", read), `${name}: mentions`).toBeLessThan(bound);
    }
  });
});
