import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { resultRows } from "@/db/result-rows";
import { couplesReportedBy, reportsAgainst } from "@/lib/safety/reports-against";
import { forum, postBody } from "../support/forum";
import { connected, connections, messagingCouple, talk } from "../support/messages";
import { moderation } from "../support/moderation";
import { daysAhead, PLACES, plan } from "../support/plans";

const reportedBy = async (coupleId: string) =>
  resultRows<{ couple_id: string }>(await (await getDb()).execute(couplesReportedBy(coupleId))).map((row) => row.couple_id);
const againstIds = async (coupleId: string) =>
  resultRows<{ id: string }>(await (await getDb()).execute(sql`select id from (${reportsAgainst(coupleId)}) against`)).map((row) => row.id);

describe("the couples a couple reported", () => {
  it("are those its reports are against, read the other way, for every kind of target; only while open", async () => {
    const { one, two, conversationId } = await connected();
    const post = (await forum.create(postBody(), one.a.headers)).json.data;
    const othersPost = (await forum.create(postBody(), two.a.headers)).json.data;
    const reply = (await forum.reply(othersPost.id, { body: "We would come" }, one.b.headers)).json.data;
    const message = (await talk.send(conversationId, { body: "See you Friday" }, one.a.headers)).json.data;
    const proposed = (
      await plan.propose(conversationId, { title: "Drinks", startsAt: daysAhead(20), placeId: PLACES.lisbon }, one.a.headers)
    ).json.data;
    const filed: string[] = [];
    for (const [targetType, targetId] of [
      ["couple", one.coupleId],
      ["post", post.id],
      ["reply", reply.id],
      ["message", message.id],
      ["plan", proposed.id],
    ] as const) {
      const res = await moderation.report({ targetType, targetId, reason: "spam" }, two.a.headers);
      expect(res.status, targetType).toBe(201);
      filed.push(res.json.data.id);
    }
    // A hello is its sender's: a third couple reports the one it was sent.
    const asked = await messagingCouple();
    const hello = (await connections.send({ coupleId: asked.coupleId, note: "Hello there" }, one.a.headers)).json.data;
    const helloReport = (await moderation.report({ targetType: "request", targetId: hello.id, reason: "spam" }, asked.a.headers)).json.data;

    expect(await reportedBy(two.coupleId)).toEqual(Array(5).fill(one.coupleId));
    expect(await reportedBy(asked.coupleId)).toEqual([one.coupleId]);
    expect((await againstIds(one.coupleId)).sort()).toEqual([...filed, helloReport.id].sort());
    // The plan's report is against the couple that did not file it, never the reporter's own.
    expect(await againstIds(two.coupleId)).toEqual([]);

    await (await getDb()).execute(sql`update reports set status = 'dismissed' where reporter_couple_id = ${two.coupleId}`);
    expect(await reportedBy(two.coupleId)).toEqual([]);
  });
});
