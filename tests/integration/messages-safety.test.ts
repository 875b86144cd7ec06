import { randomUUID } from "node:crypto";
import { and, eq, inArray, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as resolveRoute } from "@/app/api/moderation/reports/[id]/[action]/route";
import { GET as contextRoute } from "@/app/api/moderation/reports/[id]/context/route";
import { GET as openReportsRoute } from "@/app/api/moderation/reports/route";
import { POST as reportRoute } from "@/app/api/reports/route";
import { getDb } from "@/db/client";
import { conversations, heldRequests, liveEvents, moderationLog, users } from "@/db/schema";
import { transaction } from "@/db/transaction";
import { deleteAccount } from "@/lib/account/deletion";
import { exportAccount } from "@/lib/account/export";
import { render } from "@/lib/live/queries";
import { tellPartnerGone } from "@/lib/messages/ending";
import { LIVE_REGISTRY } from "@/lib/registry/live";
import { call, PASSWORD } from "../support/api";
import type { Headers } from "../support/forum";
import { connected, connections, messagingCouple, talk } from "../support/messages";
import { countingDatabase } from "../support/statement-count";
import { onPostgres } from "../support/test-database";

const report = (body: unknown, h: Headers) => call(reportRoute, "POST", "/api/reports", { body, headers: h });
const openReports = (h: Headers) => call(openReportsRoute, "GET", "/api/moderation/reports", { headers: h });
const context = (id: string, h: Headers) =>
  call(contextRoute, "GET", `/api/moderation/reports/${id}/context`, { headers: h, params: { id } });
const resolve = (id: string, action: string, h: Headers) =>
  call(resolveRoute, "POST", `/api/moderation/reports/${id}/${action}`, { headers: h, params: { id, action } });

describe("deleting an account mid-conversation", () => {
  it("erases the person's messages ('Deleted member'), and ends the conversation only when no partner remains", async () => {
    const { one, two, conversationId } = await connected();
    await talk.send(conversationId, { body: "From Ana" }, two.a.headers);
    await talk.send(conversationId, { body: "From Rui" }, two.b.headers);
    await talk.send(conversationId, { body: "From us" }, one.a.headers);
    const db = await getDb();
    await deleteAccount(db, two.b.userId, PASSWORD);
    const thread = await talk.thread(conversationId, one.b.headers);
    expect(thread.json.data.map((m: { body: string | null }) => m.body)).toEqual(["From Ana", null, "From us"]);
    expect(thread.json.data[1]).toMatchObject({ deleted: true, author: { userId: null, firstName: "Deleted member" } });
    expect((await talk.detail(conversationId, one.a.headers)).json.data.ended).toBe(false);
    expect((await talk.send(conversationId, { body: "Still here?" }, two.a.headers)).status).toBe(201);

    await deleteAccount(db, two.a.userId, PASSWORD);
    const detail = await talk.detail(conversationId, one.a.headers);
    expect(detail.json.data.ended).toBe(true);
    expect(detail.json.data.couples.map((c: { id: string }) => c.id)).toEqual([one.coupleId]);
    const inbox = await talk.inbox(one.b.headers);
    expect(inbox.json.data[0]).toMatchObject({ id: conversationId, ended: true, couple: { id: null, coupleName: "Deleted couple" } });
    expect((await talk.send(conversationId, { body: "Hello?" }, one.a.headers)).status).toBe(403);
    const [row] = await db.select({ id: conversations.id }).from(conversations).where(eq(conversations.id, conversationId));
    expect(row).toBeDefined();
  });

  it("takes their reactions from the others' open threads at once: each message they reacted to is told again, without them", async () => {
    const { one, two, conversationId } = await connected();
    const sent = (await talk.send(conversationId, { body: "We booked it!" }, one.a.headers)).json.data.id as string;
    await talk.react(sent, "heart", true, two.b.headers);
    await talk.react(sent, "clap", true, one.b.headers);
    const db = await getDb();
    const others = [one.a.userId, one.b.userId, two.a.userId];
    /** The others' live `message` rows about the message, one per person each time they were told of it. */
    const told = async () =>
      db
        .select({ userId: liveEvents.userId })
        .from(liveEvents)
        .where(and(eq(liveEvents.kind, "message"), eq(liveEvents.subjectId, sent), inArray(liveEvents.userId, others)));
    const before = (await told()).length;
    await deleteAccount(db, two.b.userId, PASSWORD);
    // The three others, once more each: their open threads render it again, the heart gone.
    expect((await told()).length - before).toBe(3);
    const shown = (await talk.thread(conversationId, one.a.headers)).json.data.at(-1);
    expect(shown.reactions).toEqual([{ kind: "clap", count: 1, names: [one.b.firstName], mine: false }]);
  });

  it("tells the others' open threads to load again when a partner goes and the couple stays: no 'Seen by' or name of theirs stays on screen", async () => {
    const { one, two, conversationId } = await connected();
    const sent = (await talk.send(conversationId, { body: "Dinner Friday?" }, one.a.headers)).json.data.id as string;
    // Rui has read it ('Seen by Rui' under it on the others' screens) and wrote nothing to erase.
    expect((await talk.read(conversationId, { upTo: sent }, two.b.headers)).status).toBe(200);
    const db = await getDb();
    // Another conversation of theirs, ended: its threads read 'This conversation has ended.' already.
    const three = await messagingCouple();
    const hello = await connections.send({ coupleId: two.coupleId, note: "Hello from three" }, three.a.headers);
    const endedId = (await connections.accept(hello.json.data.id, two.a.headers)).json.data.conversationId as string;
    await db.update(conversations).set({ endedAt: new Date() }).where(eq(conversations.id, endedId));
    const others = [one.a.userId, one.b.userId, two.a.userId, three.a.userId, three.b.userId];
    // A conversation told of as a whole (no subject), not a hello's change (its subject the request).
    const told = async (id: string) =>
      (
        await db
          .select({ userId: liveEvents.userId, payload: liveEvents.payload })
          .from(liveEvents)
          .where(and(eq(liveEvents.kind, "connection"), isNull(liveEvents.subjectId), inArray(liveEvents.userId, others)))
      ).filter((row) => row.payload?.conversationId === id);
    expect(await told(conversationId)).toEqual([]);
    const endedTold = await told(endedId);
    await deleteAccount(db, two.b.userId, PASSWORD);
    expect((await told(conversationId)).map((row) => row.userId).sort()).toEqual([one.a.userId, one.b.userId, two.a.userId].sort());
    // The ended conversation has nothing to load again: none of its people is told.
    expect(await told(endedId)).toEqual(endedTold);
    // As sent: the conversation, still open; the thread loads again and reads no Rui in it.
    const rows = await db
      .select({ seq: liveEvents.seq, kind: liveEvents.kind, subjectId: liveEvents.subjectId, payload: liveEvents.payload })
      .from(liveEvents)
      .where(and(eq(liveEvents.userId, one.a.userId), eq(liveEvents.kind, "connection")))
      .orderBy(liveEvents.seq);
    const shown = await render(db, one.a.userId, rows.slice(-1), LIVE_REGISTRY);
    expect(shown.map((event) => event.data)).toEqual([{ conversationId, ended: false }]);
    const detail = (await talk.detail(conversationId, one.a.headers)).json.data;
    expect(detail.readPositions.map((p: { userId: string }) => p.userId)).not.toContain(two.b.userId);
  });

  it.skipIf(!onPostgres())(
    "reads the people of all the couple's open conversations in one statement, the person going left out",
    async () => {
      const { two, conversationId } = await connected();
      const three = await messagingCouple();
      const hello = await connections.send({ coupleId: two.coupleId, note: "Hello from three" }, three.a.headers);
      const otherId = (await connections.accept(hello.json.data.id, two.a.headers)).json.data.conversationId as string;
      const counting = countingDatabase(process.env.DATABASE_URL!);
      try {
        let statements = 0;
        await transaction(counting.db, async (tx) => {
          counting.reset();
          await tellPartnerGone(tx, two.coupleId, two.b.userId);
          statements = counting.statements();
        });
        expect(statements).toBe(1);
      } finally {
        await counting.end();
      }
      const db = await getDb();
      const toldOf = async (userId: string) =>
        (
          await db
            .select({ payload: liveEvents.payload })
            .from(liveEvents)
            .where(and(eq(liveEvents.userId, userId), eq(liveEvents.kind, "connection"), isNull(liveEvents.subjectId)))
        ).map((row) => row.payload?.conversationId);
      expect((await toldOf(two.a.userId)).sort()).toEqual([conversationId, otherId].sort());
      expect(await toldOf(two.b.userId)).toEqual([]);
    },
  );

  it("exports the person's own messages and the requests they sent, a decline still reading pending", async () => {
    const us = await messagingCouple();
    const them = await messagingCouple();
    const sent = await connections.send({ coupleId: them.coupleId, note: "Our note" }, us.a.headers);
    await connections.decline(sent.json.data.id, them.a.headers);
    const { one, conversationId } = await connected();
    await talk.send(conversationId, { body: "Exported words" }, one.a.headers);
    const db = await getDb();
    const mine = await exportAccount(db, one.a.userId);
    expect(mine.messages.map((m) => [m.conversationId, m.body])).toEqual([[conversationId, "Exported words"]]);
    expect(mine.connectionRequestsSent).toHaveLength(1);
    const theirs = await exportAccount(db, us.a.userId);
    expect(theirs.connectionRequestsSent.map((r) => [r.note, r.status])).toEqual([["Our note", "pending"]]);
    expect((await exportAccount(db, us.b.userId)).connectionRequestsSent).toEqual([]);
  });
});

describe("the data export of a conversation", () => {
  it("holds the person's own reactions to messages, not their partner's", async () => {
    const { one, two, conversationId } = await connected();
    const sent = await talk.send(conversationId, { body: "React to this" }, one.a.headers);
    const messageId = sent.json.data.id as string;
    await talk.react(messageId, "heart", true, two.a.headers);
    await talk.react(messageId, "laugh", true, two.b.headers);
    const db = await getDb();
    expect((await exportAccount(db, two.a.userId)).messageReactions).toEqual([{ messageId, kind: "heart", createdAt: expect.any(Date) }]);
  });

  it("holds where the person read up to in each conversation and which they muted", async () => {
    const { one, two, conversationId } = await connected();
    const sent = await talk.send(conversationId, { body: "Read me" }, one.a.headers);
    expect((await talk.mute(conversationId, true, two.a.headers)).status).toBeLessThan(300);
    expect((await talk.read(conversationId, { upTo: sent.json.data.id }, two.a.headers)).status).toBe(200);
    const db = await getDb();
    expect((await exportAccount(db, two.a.userId)).conversationsRead).toEqual([
      { conversationId, lastReadMessageId: sent.json.data.id, mutedAt: expect.any(Date) },
    ]);
  });
});

describe("the data export of hellos", () => {
  it("holds the person's hellos in review (to whom, their note) and their own answers to hellos received", async () => {
    const us = await messagingCouple();
    const them = await messagingCouple();
    const db = await getDb();
    await db
      .insert(heldRequests)
      .values({ fromCoupleId: us.coupleId, toCoupleId: them.coupleId, sentByUserId: us.a.userId, note: "Held words" });
    expect((await exportAccount(db, us.a.userId)).connectionRequestsInReview).toEqual([
      { toCoupleName: them.name, note: "Held words", createdAt: expect.any(Date), status: "in review" },
    ]);
    expect((await exportAccount(db, us.b.userId)).connectionRequestsInReview).toEqual([]);

    const { one, two } = await connected();
    const declined = await connections.send({ coupleId: two.coupleId, note: "Again" }, us.b.headers);
    expect((await connections.decline(declined.json.data.id, two.a.headers)).status).toBe(200);
    expect((await exportAccount(db, two.a.userId)).connectionRequestAnswers).toEqual([
      { fromCoupleName: us.name, accepted: false, answeredAt: expect.any(Date) },
      { fromCoupleName: one.name, accepted: true, answeredAt: expect.any(Date) },
    ]);
    expect((await exportAccount(db, two.b.userId)).connectionRequestAnswers).toEqual([]);
  });
});

describe("reporting a message", () => {
  it("is for the conversation's members only; moderators open it with the ten before (logged), and removing erases it", async () => {
    const { one, two, conversationId } = await connected();
    const fifth = await messagingCouple();
    for (let i = 1; i <= 12; i++) await talk.send(conversationId, { body: `context ${i}` }, one.a.headers);
    const bad = await talk.send(conversationId, { body: "Something awful" }, one.b.headers);
    const targetId = bad.json.data.id;
    expect((await report({ targetType: "message", targetId, reason: "harassment" }, fifth.a.headers)).status).toBe(404);
    expect((await report({ targetType: "message", targetId: randomUUID(), reason: "spam" }, two.a.headers)).status).toBe(404);
    expect((await report({ targetType: "message", targetId, reason: "spam" }, one.a.headers)).status).toBe(400);
    const filed = await report({ targetType: "message", targetId, reason: "harassment", note: "Please look" }, two.a.headers);
    expect(filed.status).toBe(201);
    expect((await report({ targetType: "message", targetId, reason: "spam" }, two.a.headers)).status).toBe(409);

    const db = await getDb();
    await db.update(users).set({ role: "admin" }).where(eq(users.id, fifth.a.userId));
    const queue = await openReports(fifth.a.headers);
    const entry = queue.json.data.find((r: { targetId: string }) => r.targetId === targetId);
    expect(entry.content).toMatchObject({ body: "Something awful", coupleId: one.coupleId, coupleName: one.name });
    // The queue shows the message alone; its ten before are opened on demand, and the opening is logged.
    expect(entry.conversation).toBeUndefined();
    expect((await context(entry.id, two.a.headers)).status).toBe(403);
    const opened = await context(entry.id, fifth.a.headers);
    expect(opened.json.data.map((m: { body: string }) => m.body)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `context ${i + 3}`),
      "Something awful",
    ]);
    const [logged] = await db
      .select({ action: moderationLog.action, coupleId: moderationLog.coupleId })
      .from(moderationLog)
      .where(eq(moderationLog.targetId, entry.id));
    expect(logged).toEqual({ action: "context_viewed", coupleId: one.coupleId });
    expect((await resolve(entry.id, "remove", fifth.a.headers)).status).toBe(200);
    const last = (await talk.thread(conversationId, two.b.headers)).json.data.at(-1);
    expect(last).toMatchObject({ id: targetId, body: null, deleted: true });
  });
});

describe("the inbox", () => {
  it("pages by latest activity with a signed cursor; a forged cursor is 400", async () => {
    const us = await messagingCouple();
    const db = await getDb();
    const others = await Promise.all(Array.from({ length: 22 }, () => messagingCouple()));
    const start = Date.now() - 100_000;
    const made = await db
      .insert(conversations)
      .values(
        others.map((other, i) => {
          const [low, high] = us.coupleId < other.coupleId ? [us.coupleId, other.coupleId] : [other.coupleId, us.coupleId];
          return { coupleLowId: low, coupleHighId: high, lastActivityAt: new Date(start + i * 1000) };
        }),
      )
      .returning({ id: conversations.id, lastActivityAt: conversations.lastActivityAt });
    const newestFirst = [...made].sort((a, b) => b.lastActivityAt.getTime() - a.lastActivityAt.getTime()).map((c) => c.id);
    const first = await talk.inbox(us.a.headers);
    expect(first.json.data.map((c: { id: string }) => c.id)).toEqual(newestFirst.slice(0, 20));
    expect(first.json.pagination.hasMore).toBe(true);
    const second = await talk.inbox(us.a.headers, `?cursor=${encodeURIComponent(first.json.pagination.nextCursor)}`);
    expect(second.json.data.map((c: { id: string }) => c.id)).toEqual(newestFirst.slice(20));
    expect(second.json.pagination).toMatchObject({ hasMore: false, nextCursor: null });
    expect((await talk.inbox(us.b.headers, "?cursor=forged.cursor")).status).toBe(400);
    const theirs = await talk.inbox(others[0]!.a.headers, `?cursor=${encodeURIComponent(first.json.pagination.nextCursor)}`);
    expect(theirs.status).toBe(400);
  });
});
