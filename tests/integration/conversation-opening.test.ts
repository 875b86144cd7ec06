import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { conversationOpening } from "@/lib/messages/thread";
import { block, connected, talk } from "../support/messages";
import { openConversationWithPlans } from "@/lib/plans/service";
import { actingA, daysAhead, plan, PLACES } from "../support/plans";
import { recordingStatements } from "../support/query-plan";
import { onPostgres } from "../support/test-database";

/**
 * The conversation screen's first paint reads the detail and the newest messages in one statement
 * (lib/messages/thread.ts `conversationOpening`): the same answers as the detail call and the
 * thread call, and the one rule of who may read a conversation (lib/messages/access.ts).
 */
describe("a conversation's opening", () => {
  it.skipIf(!onPostgres())(
    "reads the detail and the newest page in one statement, as the detail and thread calls answer them",
    async () => {
      const { one, two, conversationId } = await connected();
      const sent: string[] = [];
      for (let i = 0; i < 4; i++)
        sent.push((await talk.send(conversationId, { body: `Note ${i}` }, i % 2 ? two.a.headers : one.b.headers)).json.data.id);
      await talk.react(sent[3]!, "heart", true, one.a.headers);
      await talk.read(conversationId, { upTo: sent[3] }, one.a.headers);
      await talk.mute(conversationId, true, one.a.headers);
      const { logging, logged } = recordingStatements(await getDb());
      const opened = await conversationOpening(logging, actingA(one), conversationId, 3);
      expect(logged).toHaveLength(1);
      expect(opened.conversation).toEqual((await talk.detail(conversationId, one.a.headers)).json.data);
      expect(opened.conversation.muted).toBe(true);
      expect(opened.page).toEqual((await talk.thread(conversationId, one.a.headers, "?limit=3")).json);
      expect(opened.page.data.map((message) => message.id)).toEqual(sent.slice(1));
    },
  );

  it("opens for its four only: anyone else, and an id that is no conversation, get not found; ended, it still opens for them", async () => {
    const { one, two, conversationId } = await connected();
    const db = await getDb();
    const empty = await conversationOpening(db, actingA(two), conversationId, 15);
    expect(empty.page).toEqual({ data: [], pagination: { hasMore: false } });
    await talk.send(conversationId, { body: "Just between us" }, one.a.headers);
    const stranger = (await connected()).one;
    await expect(conversationOpening(db, actingA(stranger), conversationId, 15)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(conversationOpening(db, actingA(one), randomUUID(), 15)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await block(two.coupleId, one.a.headers)).status).toBe(200);
    const ended = await conversationOpening(db, actingA(two), conversationId, 15);
    expect(ended.conversation.ended).toBe(true);
    expect(ended.page.data.map((message) => message.body)).toEqual(["Just between us"]);
    await expect(conversationOpening(db, actingA(stranger), conversationId, 15)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("reads the plans beside the opening, as the plans call answers them, and shows them only to the four", async () => {
    const { one, two, conversationId } = await connected();
    const body = { title: "Dinner and a walk", startsAt: daysAhead(3), placeId: PLACES.lisbon, venue: "Time Out Market" };
    expect((await plan.propose(conversationId, body, two.a.headers)).status).toBe(201);
    const db = await getDb();
    const opened = await openConversationWithPlans(db, actingA(one), conversationId, 15);
    expect(opened.plans.map((item) => item.title)).toEqual(["Dinner and a walk"]);
    expect(JSON.parse(JSON.stringify(opened.plans))).toEqual((await plan.ofConversation(conversationId, one.a.headers)).json.data);
    const stranger = (await connected()).one;
    await expect(openConversationWithPlans(db, actingA(stranger), conversationId, 15)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
