import { and, count, eq, sql, type SQL } from "drizzle-orm";
import type postgres from "postgres";
import { describe, expect, it } from "vitest";
import { getDb, type Db } from "@/db/client";
import { notifications } from "@/db/schema";
import { transaction } from "@/db/transaction";
import { forumSafety } from "@/lib/forum/safety";
import { deletePost, deleteReply, patchPost, patchReply } from "@/lib/forum/service";
import { cancelPlansBetween, removePlan } from "@/lib/plans/ending";
import { forum, forumCouple, postBody, type TestCouple } from "../support/forum";
import { connected } from "../support/messages";
import { actingA, daysAhead, PLACES, plan } from "../support/plans";
import { planNodes, recordingStatements, type PlanNode } from "../support/query-plan";
import { onPostgres } from "../support/test-database";

/**
 * What finding the notifications about a post, a reply or a plan reads (to reword or withdraw
 * them, or not to tell a mentioned couple twice): an index on what they are about, never the
 * whole history of their author or of the people told. A file of its own: the plans are of this
 * file's rows alone.
 */

/** Each person's earlier notifications, about other posts: told, and (for the authors) sent. */
const HISTORY = 1_500;

/** Where a statement names the subject of the notifications it looks for. */
const BY_SUBJECT = /"notifications"\."(?:post_id|plan_id|conversation_id)" =/;

/** The notifications indexes each scan of notifications in a statement's plan uses ("Seq Scan": none). */
function notificationScans(node: PlanNode): string[] {
  return planNodes(node).flatMap((scan) => {
    if (scan["Node Type"] === "Seq Scan" && scan["Relation Name"] === "notifications") return ["Seq Scan"];
    return scan["Index Name"]?.startsWith("notifications_") ? [scan["Index Name"]] : [];
  });
}

/** The indexes of notifications that each statement `run` sends looking notifications up by their subject uses, as Postgres would plan it. */
async function subjectLookups(run: (db: Db) => Promise<unknown>): Promise<string[][]> {
  const db = await getDb();
  const client = (db as unknown as { $client: postgres.Sql }).$client;
  const { logging, logged } = recordingStatements(db);
  await run(logging);
  const scans: string[][] = [];
  for (const statement of logged.filter((one) => BY_SUBJECT.test(one.query))) {
    const [row] = await client.unsafe(`explain (format json) ${statement.query}`, statement.params as never[]);
    scans.push(notificationScans((row!["QUERY PLAN"] as { Plan: PlanNode }[])[0]!.Plan));
  }
  return scans;
}

/** Rows for each person as told, by `actors` in turn, of posts that are not this test's: an old, busy account. */
async function busyHistory(db: Db, people: readonly string[], actors: readonly string[]) {
  const actor = sql`(array[${sql.join(
    actors.map((id) => sql`${id}::uuid`),
    sql`, `,
  )}])[1 + g % ${actors.length}]`;
  for (const userId of people)
    await db.execute(sql`insert into notifications (user_id, type, title, message, post_id, reply_id, actor_user_id, is_read, created_at)
      select ${userId}::uuid, case when g % 2 = 0 then 'mention' else 'reply' end, 'Earlier', 'Earlier words', gen_random_uuid(),
        case when g % 3 = 0 then null else gen_random_uuid() end, ${actor}, true, now() - g * interval '1 minute'
      from generate_series(1, ${HISTORY}) g`);
}

/** How many notifications `where` picks. */
async function held(where: SQL): Promise<number> {
  const [row] = await (await getDb()).select({ n: count() }).from(notifications).where(where);
  return row!.n;
}

const everyone = (...couples: TestCouple[]) => couples.flatMap((couple) => [couple.a.userId, couple.b.userId]);

describe("the notifications about a post, a reply or a plan", () => {
  it.skipIf(!onPostgres())("are found by what they are about, however many its author and the people told hold", async () => {
    const db = await getDb();
    const [us, them, third, fourth] = [await forumCouple(), await forumCouple(), await forumCouple(), await forumCouple()];
    const post = (await forum.create(postBody(), us.a.headers)).json.data as { id: string };
    const body = `Agreed, @${third.name}`;
    const reply = (await forum.reply(post.id, { body, mentions: [third.coupleId] }, them.a.headers)).json.data as { id: string };
    expect((await forum.react("reply", reply.id, "heart", true, us.a.headers)).status).toBe(200);
    const other = (await forum.reply(post.id, { body: "Another view" }, them.a.headers)).json.data as { id: string };
    await busyHistory(db, everyone(us, them, third, fourth), [us.a.userId, them.a.userId]);
    await db.execute(sql`vacuum analyze notifications`);

    const byPost = ["notifications_post_reply_idx"];
    // A reply reworded, naming a couple more (told once: tellMentioned), then one hidden by reports and one deleted.
    const reworded = `Agreed, @${third.name} and @${fourth.name}`;
    const mentions = [third.coupleId, fourth.coupleId];
    expect(await subjectLookups((db) => patchReply(db, actingA(them), reply.id, { body: reworded, mentions }))).toEqual([
      byPost,
      byPost,
      byPost,
    ]);
    expect(
      await held(and(eq(notifications.replyId, reply.id), eq(notifications.message, reworded))!),
      "the post's couple, the named couples and the reply's author (a reaction), reworded or told",
    ).toBe(7);
    expect(
      await subjectLookups((db) => transaction(db, (tx) => forumSafety.hiddenByReports!(tx, { targetType: "reply", targetId: other.id }))),
    ).toEqual([byPost]);
    expect(await subjectLookups((db) => deleteReply(db, actingA(them), reply.id))).toEqual([byPost, byPost]);
    // The post retitled, naming a couple (tellMentioned), then deleted.
    const patch = { title: "A calmer title", body: `Hello @${fourth.name}`, mentions: [fourth.coupleId] };
    expect(await subjectLookups((db) => patchPost(db, actingA(us), post.id, patch))).toEqual([byPost, byPost, byPost]);
    expect(await subjectLookups((db) => deletePost(db, actingA(us), post.id))).toEqual([byPost, byPost]);
    expect(await held(eq(notifications.postId, post.id)), "the post's, its replies' withdrawn as they went").toBe(0);

    // A plan's notices, among the four's busy bells: removed by a moderator, and a block's reminders.
    const four = await connected();
    const proposed = await plan.propose(
      four.conversationId,
      { title: "Picnic", startsAt: daysAhead(21), placeId: PLACES.lisbon },
      four.one.a.headers,
    );
    expect(proposed.status).toBe(201);
    await busyHistory(db, everyone(four.one, four.two), [four.one.a.userId, four.two.a.userId]);
    await db.execute(sql`vacuum analyze notifications`);
    const removal = await subjectLookups((db) => transaction(db, (tx) => removePlan(tx, proposed.json.data.id)));
    // Its reminders withdrawn as it is cancelled (markCancelled), then the rest of its notices.
    const byPlan = ["notifications_conversation_idx", "notifications_plan_idx"];
    expect(removal.map((indexes) => indexes.sort())).toEqual([byPlan, byPlan]);
    expect(await held(and(eq(notifications.conversationId, four.conversationId), eq(notifications.title, "New plan: Picnic"))!)).toBe(0);
    expect(await subjectLookups((db) => transaction(db, (tx) => cancelPlansBetween(tx, four.one.coupleId, four.two.coupleId)))).toEqual([
      ["notifications_conversation_idx"],
    ]);
  });
});
