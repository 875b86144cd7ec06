import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { connectionRequests } from "@/db/schema";
import { couplesWithHeldHellos } from "@/lib/safety/spam";
import { connected, connections, messagingCouple, talk } from "../support/messages";
import { moderation } from "../support/moderation";

describe("the spam rules", () => {
  it("holds hellos once the same note (case, spaces and digits aside) went to 5 couples in 24 hours", async () => {
    const sender = await messagingCouple();
    const targets = [];
    for (let i = 0; i < 7; i++) targets.push(await messagingCouple());
    for (let i = 0; i < 5; i++) {
      const sent = await connections.send({ coupleId: targets[i]!.coupleId, note: `Buy our course ${i}  NOW` }, sender.a.headers);
      expect(sent.status).toBe(201);
    }
    const held = await connections.send({ coupleId: targets[5]!.coupleId, note: "buy OUR course 99 now" }, sender.b.headers);
    expect(held.status).toBe(202);
    expect(held.json.data).toEqual({ status: "held", message: "Your requests are being reviewed" });
    // The couple asked sees nothing; the queue has the sender.
    expect((await connections.list("incoming", targets[5]!.a.headers)).json.data).toEqual([]);
    const db = await getDb();
    const queued = (await couplesWithHeldHellos(db)).find((row) => row.coupleId === sender.coupleId);
    expect(queued).toMatchObject({ held: 1, note: "buy OUR course 99 now" });
    // Another note still goes through.
    expect((await connections.send({ coupleId: targets[6]!.coupleId, note: "Fancy a hike?" }, sender.a.headers)).status).toBe(201);
  });

  it("restricts a couple reported for messages by 3 different couples within 7 days, until a moderator decides", async () => {
    const chats = [await connected(), await connected(), await connected()];
    // Three conversations of the same couple: make `one` of the first the sender everywhere.
    const spammer = chats[0]!.one;
    const reporters = [chats[0]!.two];
    for (const chat of chats.slice(1)) {
      const sent = await connections.send({ coupleId: chat.two.coupleId, note: "Hi" }, spammer.a.headers);
      await connections.accept(sent.json.data.id, chat.two.a.headers);
      reporters.push(chat.two);
    }
    const db = await getDb();
    const ids = await db
      .select({ conversationId: connectionRequests.conversationId, to: connectionRequests.toCoupleId })
      .from(connectionRequests)
      .where(eq(connectionRequests.fromCoupleId, spammer.coupleId));
    for (const [i, reporter] of reporters.entries()) {
      const conversationId = ids.find((row) => row.to === reporter.coupleId)!.conversationId!;
      const message = await talk.send(conversationId, { body: `Spam ${i}` }, spammer.b.headers);
      expect(message.status).toBe(201);
      expect(
        (await moderation.report({ targetType: "message", targetId: message.json.data.id, reason: "spam" }, reporter.a.headers)).status,
      ).toBe(201);
      const next = await talk.send(conversationId, { body: "more" }, spammer.a.headers);
      expect(next.status).toBe(i < 2 ? 201 : 403);
      if (i === 2) expect(next.json.error.message).toMatch(/restricted until a moderator has looked at the reports/);
    }
  });

  it("a couple whose requests are mostly left unanswered sends 3 a day, and is told its limit", async () => {
    const sender = await messagingCouple({ ageDays: 60 });
    const db = await getDb();
    const others = [];
    for (let i = 0; i < 10; i++) others.push(await messagingCouple());
    // Ten unanswered requests sent over the last weeks (not today: the daily count is today's).
    for (const other of others)
      await db.insert(connectionRequests).values({
        fromCoupleId: sender.coupleId,
        toCoupleId: other.coupleId,
        note: "Hello",
        createdAt: new Date(Date.now() - 3 * 24 * 60 * 60 * 1000),
        expiresAt: new Date(Date.now() + 20 * 24 * 60 * 60 * 1000),
      });
    const fresh = [await messagingCouple(), await messagingCouple(), await messagingCouple(), await messagingCouple()];
    for (const target of fresh.slice(0, 3))
      expect((await connections.send({ coupleId: target.coupleId, note: `Hi ${target.name}` }, sender.a.headers)).status).toBe(201);
    const refused = await connections.send({ coupleId: fresh[3]!.coupleId, note: "One more" }, sender.a.headers);
    expect(refused.status).toBe(429);
    expect(refused.json.error.message).toMatch(/^For now your couple can send 3 requests a day/);
  });
});
