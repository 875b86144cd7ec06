import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { liveEvents } from "@/db/schema";
import { connectionStates, stateOf } from "@/lib/connections/states";
import { block, connected, connections, talk, unblock } from "../support/messages";

const bodies = (res: { json: { data: { body: string | null }[] } }) => res.json.data.map((message) => message.body);

async function stateFor(viewerCoupleId: string, coupleId: string) {
  return stateOf(await connectionStates(await getDb(), viewerCoupleId, [coupleId]), coupleId);
}

describe("after a block is lifted", () => {
  it("either couple may say hello again at once, and accepting reopens the pair's one conversation with its history", async () => {
    const { one, two, conversationId } = await connected();
    await talk.send(conversationId, { body: "Before the block" }, one.a.headers);
    await talk.send(conversationId, { body: "Our answer" }, two.b.headers);
    expect((await block(two.coupleId, one.a.headers)).status).toBe(200);
    expect((await unblock(two.coupleId, one.b.headers)).status).toBe(200);

    // The ended thread is no way forward: both profiles offer 'Say hello' again.
    expect(await stateFor(one.coupleId, two.coupleId)).toEqual({ state: "none" });
    expect(await stateFor(two.coupleId, one.coupleId)).toEqual({ state: "none" });
    expect((await talk.detail(conversationId, one.a.headers)).json.data.ended).toBe(true);

    // The couple that was blocked may say hello too (the last request is days, not 90, old).
    const hello = await connections.send({ coupleId: one.coupleId, note: "Can we talk again?" }, two.a.headers);
    expect(hello.status).toBe(201);
    expect(await stateFor(two.coupleId, one.coupleId)).toEqual({ state: "requested" });
    expect(await stateFor(one.coupleId, two.coupleId)).toEqual({ state: "incoming" });

    const accepted = await connections.accept(hello.json.data.id, one.b.headers);
    expect(accepted.json.data).toEqual({ status: "accepted", conversationId });
    for (const [viewer, other] of [
      [one.coupleId, two.coupleId],
      [two.coupleId, one.coupleId],
    ] as const)
      expect(await stateFor(viewer, other)).toEqual({ state: "connected", conversationId });
    expect((await talk.detail(conversationId, two.a.headers)).json.data.ended).toBe(false);
    expect(bodies(await talk.thread(conversationId, two.a.headers))).toEqual(["Before the block", "Our answer"]);

    // All four are told live of the hello and of its acceptance (whose event names the conversation).
    const people = [one.a.userId, one.b.userId, two.a.userId, two.b.userId];
    const told = await (
      await getDb()
    )
      .select({ userId: liveEvents.userId })
      .from(liveEvents)
      .where(and(inArray(liveEvents.userId, people), eq(liveEvents.kind, "connection"), eq(liveEvents.subjectId, hello.json.data.id)));
    expect(told.map((row) => row.userId).sort()).toEqual([...people, ...people].sort());

    expect((await talk.send(conversationId, { body: "Good to be back" }, one.a.headers)).status).toBe(201);
    expect((await talk.send(conversationId, { body: "Likewise" }, two.b.headers)).status).toBe(201);
    expect(bodies(await talk.thread(conversationId, one.b.headers))).toEqual([
      "Before the block",
      "Our answer",
      "Good to be back",
      "Likewise",
    ]);
  });

  it("keeps the 90-day rule for a hello declined after the unblock, and refuses one while a block stands either way", async () => {
    const { one, two } = await connected();
    await block(two.coupleId, one.a.headers);
    await block(one.coupleId, two.a.headers);
    await unblock(two.coupleId, one.a.headers);
    expect((await connections.send({ coupleId: one.coupleId, note: "Hello?" }, two.a.headers)).status).toBe(403);
    expect((await connections.send({ coupleId: two.coupleId, note: "Hello?" }, one.a.headers)).status).toBe(404);
    await unblock(one.coupleId, two.b.headers);
    const hello = await connections.send({ coupleId: two.coupleId, note: "Hello again" }, one.a.headers);
    expect(hello.status).toBe(201);
    expect((await connections.decline(hello.json.data.id, two.a.headers)).status).toBe(200);
    const again = await connections.send({ coupleId: two.coupleId, note: "Please?" }, one.b.headers);
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe("ALREADY_REQUESTED");
  });
});
