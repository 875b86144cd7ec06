import { describe, expect, it } from "vitest";
import { GET as exportRoute } from "@/app/api/account/export/route";
import { getDb } from "@/db/client";
import { heldRequests } from "@/db/schema";
import { call } from "../support/api";
import type { Headers } from "../support/forum";
import { block, connected, connections, messagingCouple, talk } from "../support/messages";

const exportOf = (headers: Headers) => call(exportRoute, "GET", "/api/account/export", { headers: { cookie: headers.cookie! } });
const notificationsIn = async (headers: Headers): Promise<{ title: string; message: string }[]> => {
  const res = await exportOf(headers);
  expect(res.status).toBe(200);
  return res.json.notifications;
};

describe("'Download my data' holds nothing of a couple hidden from the person", () => {
  it("leaves out the notifications from a couple blocked either way, as the bell does (a block hides both couples everywhere)", async () => {
    const { one, two, conversationId } = await connected();
    expect((await talk.send(conversationId, { body: "Our new address is Rua Secreta 7" }, two.a.headers)).status).toBe(201);
    const fromTwo = (list: { title: string; message: string }[]) => list.filter((n) => `${n.title} ${n.message}`.includes(two.name));
    expect(fromTwo(await notificationsIn(one.a.headers))).not.toEqual([]);

    // The couple that wrote blocks the reader's couple: hidden from them everywhere, the export included.
    expect((await block(one.coupleId, two.a.headers)).status).toBe(200);
    expect(fromTwo(await notificationsIn(one.a.headers))).toEqual([]);
    // And the other way round: the reader's couple blocking them hides them too.
    expect((await block(two.coupleId, one.b.headers)).status).toBe(200);
    expect(fromTwo(await notificationsIn(one.b.headers))).toEqual([]);
  });

  it("names the couple of a hello, sent or answered, only while the two couples stand together, as the requests list does", async () => {
    const { one, two } = await connected();
    const third = await messagingCouple();
    expect((await connections.send({ coupleId: third.coupleId, note: "Coffee in Alfama?" }, one.b.headers)).status).toBe(201);
    // And one the spam rule holds for a moderator (lib/safety/spam.ts).
    const fourth = await messagingCouple();
    const db = await getDb();
    await db
      .insert(heldRequests)
      .values({ fromCoupleId: one.coupleId, toCoupleId: fourth.coupleId, sentByUserId: one.b.userId, note: "Held hello" });
    const before = (await exportOf(one.b.headers)).json;
    expect(before.connectionRequestsSent).toEqual([expect.objectContaining({ toCoupleName: third.name, note: "Coffee in Alfama?" })]);
    expect((await exportOf(two.a.headers)).json.connectionRequestAnswers).toEqual([expect.objectContaining({ fromCoupleName: one.name })]);
    expect(before.connectionRequestsInReview).toEqual([expect.objectContaining({ toCoupleName: fourth.name, note: "Held hello" })]);

    // Each blocked by the other couple since: the hello stays the sender's, the other couple is not named.
    expect((await block(one.coupleId, third.a.headers)).status).toBe(200);
    expect((await block(one.coupleId, two.b.headers)).status).toBe(200);
    expect((await block(one.coupleId, fourth.a.headers)).status).toBe(200);
    const after = (await exportOf(one.b.headers)).json;
    expect(after.connectionRequestsSent).toEqual([expect.objectContaining({ toCoupleName: null, note: "Coffee in Alfama?" })]);
    expect(after.connectionRequestsInReview).toEqual([expect.objectContaining({ toCoupleName: null, note: "Held hello" })]);
    expect((await exportOf(two.a.headers)).json.connectionRequestAnswers).toEqual([expect.objectContaining({ fromCoupleName: null })]);
  });
});
