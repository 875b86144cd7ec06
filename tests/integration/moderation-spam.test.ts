import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { connectionRequests, couples, moderationLog, notifications } from "@/db/schema";
import { currentRestriction } from "@/lib/safety/notices";
import { AUTO_RESTRICT_LIFTED, HELD_NOT_DELIVERABLE } from "@/lib/safety/spam-rules";
import { block, connected, connections, messagingCouple, talk } from "../support/messages";
import type { TestCouple } from "../support/forum";
import { allHeldCouples, coupleRecordOf, moderation, moderatorCouple, sanctions, withRole } from "../support/moderation";

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
    const queued = (await allHeldCouples({ coupleId: null })).find((row) => row.coupleId === sender.coupleId);
    expect(queued).toMatchObject({ held: 1, note: "buy OUR course 99 now" });
    // Another note still goes through.
    expect((await connections.send({ coupleId: targets[6]!.coupleId, note: "Fancy a hike?" }, sender.a.headers)).status).toBe(201);
  });

  it("holds the same note whatever spaces it is written with (a no-break or ideographic space is a space too)", async () => {
    const sender = await messagingCouple();
    const targets = [];
    for (let i = 0; i < 6; i++) targets.push(await messagingCouple());
    // The browser and the rule read these as spaces: a note padded with them is still the same note.
    const note = "Buy\u00a0our\u3000course now";
    for (let i = 0; i < 5; i++)
      expect((await connections.send({ coupleId: targets[i]!.coupleId, note }, sender.a.headers)).status).toBe(201);
    expect((await connections.send({ coupleId: targets[5]!.coupleId, note }, sender.a.headers)).status).toBe(202);
  });

  it("a held hello sent again (a double click, both partners at once) is held once", async () => {
    const sender = await messagingCouple();
    const targets = [];
    for (let i = 0; i < 6; i++) targets.push(await messagingCouple());
    for (let i = 0; i < 5; i++)
      expect((await connections.send({ coupleId: targets[i]!.coupleId, note: "Buy our course now" }, sender.a.headers)).status).toBe(201);
    const hello = { coupleId: targets[5]!.coupleId, note: "Buy our course now" };
    const answers = await Promise.all([connections.send(hello, sender.a.headers), connections.send(hello, sender.b.headers)]);
    expect(answers.map((answer) => answer.status)).toEqual([202, 202]);
    expect((await connections.send(hello, sender.a.headers)).status).toBe(202);
    const queued = (await allHeldCouples({ coupleId: null })).find((row) => row.coupleId === sender.coupleId);
    expect(queued, "one hello held for the moderators, decided once").toMatchObject({ held: 1 });
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

  it("lets a moderator's decision stand: reports dismissed and the restriction lifted, the next report does not restrict again", async () => {
    const spammer = await messagingCouple();
    const { headers: moderator } = await moderatorCouple();
    const reporters: (TestCouple & { conversationId: string })[] = [];
    for (let i = 0; i < 4; i++) {
      const reporter = await messagingCouple();
      const sent = await connections.send({ coupleId: reporter.coupleId, note: "Hi" }, spammer.a.headers);
      const accepted = await connections.accept(sent.json.data.id, reporter.a.headers);
      reporters.push({ ...reporter, conversationId: accepted.json.data.conversationId });
    }
    const db = await getDb();
    const reportMessage = async (reporter: (typeof reporters)[number]) => {
      const message = await talk.send(reporter.conversationId, { body: "Buy now" }, spammer.a.headers);
      expect(message.status).toBe(201);
      const report = await moderation.report({ targetType: "message", targetId: message.json.data.id, reason: "spam" }, reporter.a.headers);
      expect(report.status).toBe(201);
      return report.json.data.id as string;
    };
    const reportIds = [];
    for (const reporter of reporters.slice(0, 3)) reportIds.push(await reportMessage(reporter));
    const restriction = await currentRestriction(db, spammer.coupleId);
    expect(restriction).toMatchObject({ kind: "restrict", endsAt: null });

    // The moderator looks: the reports were wrong. Dismissed, which lifts the restriction they made.
    for (const id of reportIds) expect((await moderation.resolve(id, "dismiss", moderator)).status).toBe(200);
    expect(await currentRestriction(db, spammer.coupleId)).toBeNull();
    await reportMessage(reporters[3]!);
    expect(await currentRestriction(db, spammer.coupleId)).toBeNull();
    // Three couples reporting anew still restrict it.
    await reportMessage(reporters[0]!);
    expect(await currentRestriction(db, spammer.coupleId)).toBeNull();
    await reportMessage(reporters[1]!);
    const again = await currentRestriction(db, spammer.coupleId);
    expect(again).toMatchObject({ kind: "restrict", endsAt: null });
    // Lifted with the reports left open: the reports before the lift no longer count.
    expect((await sanctions.lift(again!.id, { reason: "Spoke with them" }, moderator)).status).toBe(200);
    await reportMessage(reporters[2]!);
    expect(await currentRestriction(db, spammer.coupleId)).toBeNull();
  });

  it("lifts the rule's restriction once a moderator dismissed enough of the reports that made it: it stood until a moderator decided", async () => {
    const spammer = await messagingCouple();
    const { headers: moderator } = await moderatorCouple();
    const reporters: (TestCouple & { conversationId: string })[] = [];
    for (let i = 0; i < 4; i++) {
      const reporter = await messagingCouple();
      const sent = await connections.send({ coupleId: reporter.coupleId, note: "Hi" }, spammer.a.headers);
      const accepted = await connections.accept(sent.json.data.id, reporter.a.headers);
      reporters.push({ ...reporter, conversationId: accepted.json.data.conversationId });
    }
    const reportIds: string[] = [];
    for (const reporter of reporters) {
      const message = await talk.send(reporter.conversationId, { body: "Buy now" }, spammer.a.headers);
      // The fourth is refused: the first three reports restricted the couple.
      if (message.status !== 201) break;
      const report = await moderation.report({ targetType: "message", targetId: message.json.data.id, reason: "spam" }, reporter.a.headers);
      reportIds.push(report.json.data.id as string);
    }
    const db = await getDb();
    const restriction = await currentRestriction(db, spammer.coupleId);
    expect(restriction).toMatchObject({ kind: "restrict", endsAt: null });
    // One upheld (removed) and one dismissed: two couples' reports still stand, under the rule's 3, so it is lifted.
    expect((await moderation.resolve(reportIds[0]!, "remove", moderator)).status).toBe(200);
    expect(await currentRestriction(db, spammer.coupleId)).toMatchObject({ id: restriction!.id });
    expect((await moderation.resolve(reportIds[1]!, "dismiss", moderator)).status).toBe(200);
    expect(await currentRestriction(db, spammer.coupleId)).toBeNull();
    const lifts = await db
      .select({ note: moderationLog.note })
      .from(moderationLog)
      .where(and(eq(moderationLog.action, "lift"), eq(moderationLog.targetId, restriction!.id)));
    expect(lifts).toEqual([{ note: AUTO_RESTRICT_LIFTED }]);
    expect((await talk.send(reporters[3]!.conversationId, { body: "Sorry" }, spammer.a.headers)).status).toBe(201);
  });

  it("does not count reports a moderator dismissed before the rule restricted", async () => {
    const reported = await messagingCouple();
    const { headers: moderator } = await moderatorCouple();
    const db = await getDb();
    const reportIds = [];
    for (let i = 0; i < 3; i++) {
      const asked = await messagingCouple();
      expect((await connections.send({ coupleId: asked.coupleId, note: "Hi" }, reported.a.headers)).status).toBe(201);
      const report = await moderation.report({ targetType: "couple", targetId: reported.coupleId, reason: "spam" }, asked.a.headers);
      expect(report.status).toBe(201);
      reportIds.push(report.json.data.id as string);
      if (i === 0) expect((await moderation.resolve(reportIds[0]!, "dismiss", moderator)).status).toBe(200);
    }
    expect(await currentRestriction(db, reported.coupleId)).toBeNull();
  });

  it("counts a report of the couple only from a couple it sent a hello to", async () => {
    const reported = await messagingCouple();
    const db = await getDb();
    const reportCouple = async (reporter: TestCouple) =>
      expect(
        (await moderation.report({ targetType: "couple", targetId: reported.coupleId, reason: "spam" }, reporter.a.headers)).status,
      ).toBe(201);
    // Three couples it never wrote to report its profile: not its hellos.
    for (let i = 0; i < 3; i++) await reportCouple(await messagingCouple());
    expect(await currentRestriction(db, reported.coupleId)).toBeNull();
    // Three couples it said hello to.
    for (let i = 0; i < 3; i++) {
      const asked = await messagingCouple();
      expect((await connections.send({ coupleId: asked.coupleId, note: "Hi" }, reported.a.headers)).status).toBe(201);
      await reportCouple(asked);
    }
    expect(await currentRestriction(db, reported.coupleId)).toMatchObject({ kind: "restrict", endsAt: null });
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

describe("a moderator decides a held hello", () => {
  it("delivers one as a normal request, drops another, refuses one a block made undeliverable; all logged, the sender told nothing", async () => {
    const sender = await messagingCouple();
    const targets = [];
    for (let i = 0; i < 8; i++) targets.push(await messagingCouple());
    for (let i = 0; i < 5; i++)
      expect((await connections.send({ coupleId: targets[i]!.coupleId, note: "Join my club" }, sender.a.headers)).status).toBe(201);
    for (let i = 5; i < 8; i++)
      expect((await connections.send({ coupleId: targets[i]!.coupleId, note: "join my club" }, sender.a.headers)).status).toBe(202);
    const { headers } = await moderatorCouple();
    const record = await coupleRecordOf(sender.coupleId, headers);
    const held = record.json.data.held as { id: string; toCouple: { id: string }; note: string }[];
    expect(held.map((hello) => hello.toCouple.id)).toEqual(targets.slice(5).map((target) => target.coupleId));
    const [toDeliver, toDrop, toBlocked] = held;
    const db = await getDb();
    const senderNoticesBefore = await db
      .select()
      .from(notifications)
      .where(inArray(notifications.userId, [sender.a.userId, sender.b.userId]));

    expect((await moderation.decideHeld(toDeliver!.id, "deliver", targets[0]!.a.headers)).status).toBe(403);
    expect((await moderation.decideHeld(toDeliver!.id, "forward", headers)).status).toBe(400);
    const delivered = await moderation.decideHeld(toDeliver!.id, "deliver", headers);
    expect(delivered.status).toBe(200);
    expect(delivered.json.data).toEqual({ id: toDeliver!.id, status: "delivered" });
    const incoming = (await connections.list("incoming", targets[5]!.a.headers)).json.data;
    expect(incoming).toMatchObject([{ note: "join my club", couple: { id: sender.coupleId } }]);
    expect(
      await db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, targets[5]!.b.userId), eq(notifications.type, "connection_request"))),
    ).toHaveLength(1);
    expect((await moderation.decideHeld(toDeliver!.id, "deliver", headers)).status).toBe(404);

    expect((await moderation.decideHeld(toDrop!.id, "drop", headers)).json.data).toEqual({ id: toDrop!.id, status: "dropped" });
    expect((await connections.list("incoming", targets[6]!.a.headers)).json.data).toEqual([]);

    await block(sender.coupleId, targets[7]!.a.headers);
    const refused = await moderation.decideHeld(toBlocked!.id, "deliver", headers);
    expect(refused.status).toBe(409);
    expect(refused.json.error).toMatchObject({ code: "NOT_DELIVERABLE", message: HELD_NOT_DELIVERABLE });
    expect((await moderation.decideHeld(toBlocked!.id, "drop", headers)).status).toBe(200);
    expect((await coupleRecordOf(sender.coupleId, headers)).json.data.held).toEqual([]);

    // The sender's partners were told nothing either way.
    expect(
      await db
        .select()
        .from(notifications)
        .where(inArray(notifications.userId, [sender.a.userId, sender.b.userId])),
    ).toHaveLength(senderNoticesBefore.length);
    const log = await db
      .select({ action: moderationLog.action, targetId: moderationLog.targetId })
      .from(moderationLog)
      .where(eq(moderationLog.coupleId, sender.coupleId));
    expect(log).toEqual(
      expect.arrayContaining([
        { action: "held_delivered", targetId: toDeliver!.id },
        { action: "held_dropped", targetId: toDrop!.id },
        { action: "held_dropped", targetId: toBlocked!.id },
      ]),
    );
    expect(log).toHaveLength(3);
  });
});

describe("a held hello addressed to a moderator's own couple", () => {
  it("is not theirs: not in their queue or the sender's record, and deciding it answers 404; another moderator decides it", async () => {
    const sender = await messagingCouple();
    const targets = [];
    for (let i = 0; i < 6; i++) targets.push(await messagingCouple());
    for (let i = 0; i < 5; i++)
      expect((await connections.send({ coupleId: targets[i]!.coupleId, note: "Our retreat, 50% off" }, sender.a.headers)).status).toBe(201);
    const asked = targets[5]!;
    expect((await connections.send({ coupleId: asked.coupleId, note: "our retreat, 50% off" }, sender.b.headers)).status).toBe(202);
    const askedModerator = await withRole(asked, "moderator");
    const { headers: other } = await moderatorCouple();

    expect((await coupleRecordOf(sender.coupleId, askedModerator)).json.data.held).toEqual([]);
    expect((await allHeldCouples({ coupleId: asked.coupleId })).map((row) => row.coupleId)).not.toContain(sender.coupleId);
    const [held] = (await coupleRecordOf(sender.coupleId, other)).json.data.held as { id: string; toCouple: { id: string } }[];
    expect(held!.toCouple.id).toBe(asked.coupleId);
    expect((await moderation.decideHeld(held!.id, "deliver", askedModerator)).status).toBe(404);
    expect((await connections.list("incoming", asked.a.headers)).json.data).toEqual([]);
    expect((await moderation.decideHeld(held!.id, "deliver", other)).status).toBe(200);
  });
});

describe("a held hello of a couple a moderator's own couple reported", () => {
  it("is not in their queue, as deciding it is refused; another moderator's queue has it", async () => {
    const sender = await messagingCouple();
    const targets = [];
    for (let i = 0; i < 6; i++) targets.push(await messagingCouple());
    const hellos = [];
    for (let i = 0; i < 5; i++) {
      const sent = await connections.send({ coupleId: targets[i]!.coupleId, note: "Our retreat, 50% off" }, sender.a.headers);
      expect(sent.status).toBe(201);
      hellos.push(sent.json.data.id as string);
    }
    expect((await connections.send({ coupleId: targets[5]!.coupleId, note: "our retreat, 50% off" }, sender.b.headers)).status).toBe(202);
    // A couple the sender asked reports its hello, and one of its partners moderates: the sender is another moderator's.
    const reporting = targets[0]!;
    expect((await moderation.report({ targetType: "request", targetId: hellos[0]!, reason: "spam" }, reporting.b.headers)).status).toBe(
      201,
    );
    const moderator = await withRole(reporting, "moderator");
    const { headers: other } = await moderatorCouple();

    expect((await allHeldCouples({ coupleId: reporting.coupleId })).map((row) => row.coupleId)).not.toContain(sender.coupleId);
    const [held] = (await coupleRecordOf(sender.coupleId, other)).json.data.held as { id: string }[];
    expect((await moderation.decideHeld(held!.id, "drop", moderator)).status).toBe(403);
    expect((await allHeldCouples({ coupleId: null })).map((row) => row.coupleId)).toContain(sender.coupleId);
  });
});

describe("links of low-trust couples", () => {
  it("are marked plain in a conversation's first 5 messages of a new couple, clickable after and from a trusted couple; they relax with age", async () => {
    const fresh = await messagingCouple({ ageDays: 1 });
    const trusted = await messagingCouple();
    const sent = await connections.send({ coupleId: trusted.coupleId, note: "Visit https://example.com/us" }, fresh.a.headers);
    const conversationId = (await connections.accept(sent.json.data.id, trusted.a.headers)).json.data.conversationId;
    const fromFresh = await talk.send(conversationId, { body: "See https://spam.example/offer" }, fresh.a.headers);
    expect(fromFresh.json.data.plainLinks).toBe(true);
    const fromTrusted = await talk.send(conversationId, { body: "Ours: https://example.org" }, trusted.a.headers);
    expect(fromTrusted.json.data.plainLinks).toBeUndefined();
    const noLink = await talk.send(conversationId, { body: "No link here" }, fresh.b.headers);
    expect(noLink.json.data.plainLinks).toBeUndefined();
    await talk.send(conversationId, { body: "Four" }, fresh.a.headers);
    await talk.send(conversationId, { body: "Five https://spam.example/5" }, fresh.a.headers);
    const sixth = await talk.send(conversationId, { body: "Six https://spam.example/6" }, fresh.a.headers);
    expect(sixth.json.data.plainLinks).toBeUndefined();

    const thread = (await talk.thread(conversationId, trusted.b.headers)).json.data as { body: string; plainLinks?: true }[];
    const plain = thread.filter((message) => message.plainLinks).map((message) => message.body);
    expect(plain).toEqual(["See https://spam.example/offer", "Five https://spam.example/5"]);

    // A week on, the couple is trusted: the same messages' links are clickable.
    const db = await getDb();
    await db
      .update(couples)
      .set({ createdAt: new Date(Date.now() - 8 * 24 * 60 * 60 * 1000) })
      .where(eq(couples.id, fresh.coupleId));
    const later = (await talk.thread(conversationId, trusted.b.headers)).json.data as { plainLinks?: true }[];
    expect(later.some((message) => message.plainLinks)).toBe(false);
  });
});
