import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DELETE as deleteAccountRoute } from "@/app/api/account/route";
import { getDb } from "@/db/client";
import { resultRows } from "@/db/result-rows";
import { forumReplies, messages, plans, users } from "@/db/schema";
import { PASSWORD, call } from "../support/api";
import { forum, postBody, type Headers } from "../support/forum";
import { connected, talk } from "../support/messages";
import { moderation } from "../support/moderation";
import { daysAhead, PLACES, plan } from "../support/plans";

const remove = (headers: Headers) => call(deleteAccountRoute, "DELETE", "/api/account", { body: { password: PASSWORD }, headers });

/** Every row of every table (but the append-only moderation record) whose text holds one of `needles`: "table.column". */
async function holders(needles: string[]): Promise<string[]> {
  const db = await getDb();
  const columns = resultRows<{ table_name: string; column_name: string }>(
    await db.execute(sql`
      select c.table_name, c.column_name from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
      where c.table_schema = current_schema() and c.table_name not in ('moderation_log')`),
  );
  const found: string[] = [];
  for (const { table_name, column_name } of columns) {
    for (const needle of needles) {
      const rows = resultRows<{ n: number }>(
        await db.execute(
          sql`select count(*)::int as n from ${sql.identifier(table_name)} where ${sql.identifier(column_name)}::text ilike ${`%${needle}%`}`,
        ),
      );
      if (rows[0]!.n > 0) found.push(`${table_name}.${column_name} (${needle})`);
    }
  }
  return found;
}

describe("DELETE /api/account leaves nothing of the person in any table (its words, its id, its address, its last name)", () => {
  it("after messages, reactions, read positions, a hello, a plan, a report, posts, replies and forum reactions: not the hits counted against their limits, nor the others' 'Seen by' rows", async () => {
    const { one, two, conversationId } = await connected();
    const person = one.a;
    const db = await getDb();
    const lastName = `Quillfeather${Date.now()}`;
    await db.update(users).set({ lastName }).where(eq(users.id, person.userId));
    const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, person.userId));
    const theirs = await talk.send(conversationId, { body: "From the other couple" }, two.a.headers);
    expect(theirs.status).toBeLessThan(300);
    expect((await talk.send(conversationId, { body: "Words of the person" }, person.headers)).status).toBeLessThan(300);
    expect((await talk.react(theirs.json.data.id, "heart", true, person.headers)).status).toBeLessThan(300);
    expect((await talk.read(conversationId, { upTo: theirs.json.data.id }, person.headers)).status).toBe(200);
    const post = await forum.create(postBody({ title: "A post by the person" }), person.headers);
    const otherPost = await forum.create(postBody({ title: "A post by the other couple" }), two.a.headers);
    expect((await forum.reply(otherPost.json.data.id, { body: "A reply by the person" }, person.headers)).status).toBeLessThan(300);
    const replyToThem = await forum.reply(post.json.data.id, { body: "A reply to the person" }, two.a.headers);
    expect(replyToThem.status).toBe(201);

    const reacted = await forum.react("post", otherPost.json.data.id, "heart", true, person.headers);
    expect([post.status, otherPost.status, reacted.status]).toEqual([201, 201, 200]);
    // Their words elsewhere, each with a mark of its own to find any copy of them.
    const mark = `zq${Date.now()}x`;
    expect((await talk.send(conversationId, { body: `Call us ${mark}` }, person.headers)).status).toBeLessThan(300);
    const proposed = await plan.propose(
      conversationId,
      { title: "Dinner", startsAt: daysAhead(10), placeId: PLACES.lisbon, note: `Table ${mark}` },
      person.headers,
    );
    expect(proposed.status).toBe(201);
    const theirPlan = await plan.propose(
      conversationId,
      { title: "Lunch", startsAt: daysAhead(12), placeId: PLACES.lisbon },
      two.a.headers,
    );
    expect((await plan.answer(theirPlan.json.data.id, "going", person.headers)).status).toBeLessThan(300);
    const reported = await moderation.report(
      { targetType: "post", targetId: otherPost.json.data.id, reason: "spam", note: `Seen ${mark}` },
      person.headers,
    );
    expect(reported.status).toBe(201);
    expect((await remove(person.headers)).status).toBe(200);
    expect(await holders([person.userId, row!.email, lastName, mark])).toEqual([]);

    // Their partner, the couple's last member, goes too: nothing of the couple either (it sent the hello).
    expect((await talk.send(conversationId, { body: "Words of the partner" }, one.b.headers)).status).toBeLessThan(300);
    expect((await remove(one.b.headers)).status).toBe(200);
    expect(await holders([one.b.userId, one.coupleId])).toEqual([]);
    // Nobody else's words went with them: the other couple's message, reply and plan stay.
    const [message] = await db.select({ body: messages.body }).from(messages).where(eq(messages.id, theirs.json.data.id));
    const [reply] = await db.select({ body: forumReplies.body }).from(forumReplies).where(eq(forumReplies.id, replyToThem.json.data.id));
    const [lunch] = await db.select({ title: plans.title }).from(plans).where(eq(plans.id, theirPlan.json.data.id));
    expect([message?.body, reply?.body, lunch?.title]).toEqual(["From the other couple", "A reply to the person", "Lunch"]);
  }, 120_000);
});
