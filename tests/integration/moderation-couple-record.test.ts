import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { coupleSanctions, reports } from "@/db/schema";
import { OWN_COUPLE_MESSAGE } from "@/lib/safety/moderators";
import { forum, postBody } from "../support/forum";
import { block, connected, connections, messagingCouple, talk } from "../support/messages";
import { coupleRecordOf, moderation, moderatorCouple, sanctions } from "../support/moderation";
import { sendPendingSelfie, verification } from "../support/verification";

describe("a couple's record for moderators", () => {
  it("counts reports by reason and by couple, blocks received, hellos of 30 days and earlier actions; members get 403", async () => {
    const { one: subject, two: talker, conversationId } = await connected();
    const others = [await messagingCouple(), await messagingCouple(), await messagingCouple()];
    const { headers } = await moderatorCouple();
    const post = (await forum.create(postBody(), subject.a.headers)).json.data;
    const message = (await talk.send(conversationId, { body: "Buy my stuff" }, subject.b.headers)).json.data;
    await moderation.report({ targetType: "post", targetId: post.id, reason: "spam" }, others[0]!.a.headers);
    await moderation.report({ targetType: "post", targetId: post.id, reason: "spam" }, others[0]!.b.headers);
    await moderation.report({ targetType: "couple", targetId: subject.coupleId, reason: "spam" }, others[1]!.a.headers);
    const filed = await moderation.report({ targetType: "message", targetId: message.id, reason: "harassment" }, talker.a.headers);
    await block(subject.coupleId, others[2]!.a.headers);
    await connections.send({ coupleId: others[0]!.coupleId, note: "Hello" }, subject.a.headers);

    expect((await coupleRecordOf(subject.coupleId, others[0]!.a.headers)).status).toBe(403);
    const record = await coupleRecordOf(subject.coupleId, headers);
    expect(record.status).toBe(200);
    expect(record.json.data).toMatchObject({
      couple: { id: subject.coupleId, status: "active" },
      reports: [
        { reason: "spam", reports: 3, couples: 2 },
        { reason: "harassment", reports: 1, couples: 1 },
      ],
      blocksReceived: { count: 1, capped: false },
      // The hello that opened the conversation, and the one just sent.
      hellos30Days: { sent: 2, accepted: 1, unanswered: 1 },
      actions: [],
    });

    // Acting from a message's report leaves it open for its own decision; the record lists the action.
    const acted = await sanctions.act(
      subject.coupleId,
      { kind: "restrict", reason: "harassment", days: 1, reportId: filed.json.data.id },
      headers,
    );
    expect(acted.status).toBe(201);
    const db = await getDb();
    const [row] = await db.select({ status: reports.status }).from(reports).where(eq(reports.id, filed.json.data.id));
    expect(row!.status).toBe("open");
    const after = await coupleRecordOf(subject.coupleId, headers);
    expect(after.json.data.actions).toMatchObject([{ kind: "restrict", reason: "harassment", liftedAt: null }]);
    expect((await coupleRecordOf("00000000-0000-4000-8000-000000000000", headers)).status).toBe(404);
  });
});

describe("what a moderator reads of their own couple", () => {
  it("says another moderator acts on the moderator's own couple and on a couple their couple reported, as acting is refused", async () => {
    const { couple: own, headers } = await moderatorCouple();
    const reported = await messagingCouple();
    const unrelated = await messagingCouple();
    expect((await moderation.report({ targetType: "couple", targetId: reported.coupleId, reason: "spam" }, own.b.headers)).status).toBe(
      201,
    );
    const leftTo = async (coupleId: string) => (await coupleRecordOf(coupleId, headers)).json.data.leftToAnother;
    expect(await leftTo(own.coupleId)).toBe("own");
    expect(await leftTo(reported.coupleId)).toBe("reported");
    expect(await leftTo(unrelated.coupleId)).toBeNull();
    expect((await sanctions.act(reported.coupleId, { kind: "warn", reason: "spam" }, headers)).status).toBe(403);
    expect((await sanctions.act(unrelated.coupleId, { kind: "warn", reason: "spam" }, headers)).status).toBe(201);
  });

  it("never who reported it (the queue), who acted on it or their notes (the record, the log): another moderator's", async () => {
    const { couple: own, headers: ownHeaders } = await moderatorCouple();
    const { headers: other } = await moderatorCouple();
    const reporter = await messagingCouple();
    const post = (await forum.create(postBody(), own.a.headers)).json.data;
    const filed = (await moderation.report({ targetType: "post", targetId: post.id, reason: "spam" }, reporter.a.headers)).json.data;
    const byCouple = (await moderation.report({ targetType: "couple", targetId: own.coupleId, reason: "spam" }, reporter.b.headers)).json
      .data;
    const ids = (answer: { json: { data: { id: string }[] } }) => answer.json.data.map((report) => report.id);
    expect(ids(await moderation.queue(other))).toEqual(expect.arrayContaining([filed.id, byCouple.id]));
    const ownQueue = await moderation.queue(ownHeaders);
    expect(ownQueue.status).toBe(200);
    expect(ids(ownQueue)).not.toContain(filed.id);
    expect(ids(ownQueue)).not.toContain(byCouple.id);

    const acted = await sanctions.act(own.coupleId, { kind: "warn", reason: "spam", note: "Seen in three threads" }, other);
    expect(acted.status).toBe(201);
    const theirs = await coupleRecordOf(own.coupleId, other);
    expect(theirs.json.data.actions).toMatchObject([
      { kind: "warn", note: "Seen in three threads", createdByUserId: expect.any(String), bySpamRules: false },
    ]);
    const mine = await coupleRecordOf(own.coupleId, ownHeaders);
    expect(mine.status).toBe(200);
    // Who acted is blanked, which does not make it the spam rules' doing.
    expect(mine.json.data.actions).toMatchObject([{ kind: "warn", reason: "spam", note: null, createdByUserId: null, bySpamRules: false }]);
    // Why another moderator lifted it is theirs too (the log keeps it as the lift's note).
    expect((await sanctions.lift(acted.json.data.id, { reason: "Two of the threads were a misunderstanding" }, other)).status).toBe(200);
    expect((await coupleRecordOf(own.coupleId, other)).json.data.actions).toMatchObject([
      { liftReason: "Two of the threads were a misunderstanding" },
    ]);
    const lifted = await coupleRecordOf(own.coupleId, ownHeaders);
    expect(lifted.json.data.actions).toMatchObject([{ kind: "warn", liftedAt: expect.any(String), liftReason: null }]);
    expect(JSON.stringify(lifted.json)).not.toContain("misunderstanding");
    // A restriction the spam rules made by themselves names no moderator: another moderator is told so.
    const db = await getDb();
    const [byRules] = await db.insert(coupleSanctions).values({ coupleId: own.coupleId, kind: "restrict", reason: "spam" }).returning();
    const ruled = (await coupleRecordOf(own.coupleId, other)).json.data.actions as { id: string; bySpamRules: boolean }[];
    expect(ruled.find((action) => action.id === byRules!.id)?.bySpamRules).toBe(true);

    const logged = (answer: { json: { data: { couple: { id: string } | null }[] } }) =>
      answer.json.data.filter((row) => row.couple?.id === own.coupleId).length;
    expect(logged(await moderation.log(`?couple=${own.coupleId}`, other))).toBeGreaterThan(0);
    expect(logged(await moderation.log(`?couple=${own.coupleId}`, ownHeaders))).toBe(0);
    expect(logged(await moderation.log("", ownHeaders))).toBe(0);
  });
});

describe("what a moderator's record of their own couple leaves out", () => {
  it("never that it was reported or blocked, nor how often: a couple is never told, a moderator's own included", async () => {
    const { couple: own, headers: ownHeaders } = await moderatorCouple();
    const { headers: other } = await moderatorCouple();
    const them = await messagingCouple();
    await moderation.report({ targetType: "couple", targetId: own.coupleId, reason: "spam" }, them.a.headers);
    expect((await block(own.coupleId, them.a.headers)).status).toBe(200);

    // Another moderator reads both, as on any couple.
    expect((await coupleRecordOf(own.coupleId, other)).json.data).toMatchObject({
      reports: [{ reason: "spam", reports: 1, couples: 1 }],
      blocksReceived: { count: 1, capped: false },
    });
    const mine = await coupleRecordOf(own.coupleId, ownHeaders);
    expect(mine.status).toBe(200);
    expect(mine.json.data).toMatchObject({ couple: { id: own.coupleId }, reports: null, blocksReceived: null });
  });
});

describe("a couple's photo verification on its record for moderators", () => {
  it("shows each partner's state and decision date, and a selfie only while it waits, at the moderators' URL", async () => {
    const subject = await messagingCouple();
    const { headers } = await moderatorCouple();
    const verificationsOf = async () => (await coupleRecordOf(subject.coupleId, headers)).json.data.verifications;

    expect(await verificationsOf()).toEqual([
      expect.objectContaining({ userId: subject.a.userId, status: "not_started", decidedAt: null, pending: null }),
      expect.objectContaining({ userId: subject.b.userId, status: "not_started", decidedAt: null, pending: null }),
    ]);

    const { pose } = await sendPendingSelfie(subject.a.headers);
    const waiting = await coupleRecordOf(subject.coupleId, headers);
    expect(waiting.json.data.verifications[0]).toMatchObject({
      userId: subject.a.userId,
      status: "pending",
      decidedAt: null,
      pending: { pose: { id: pose }, selfieUrl: `/api/moderation/verifications/${subject.a.userId}/selfie` },
    });
    // The storage key never leaves the server, and a member still gets 403.
    expect(JSON.stringify(waiting.json)).not.toContain("verification-selfie/");
    expect((await coupleRecordOf(subject.coupleId, subject.b.headers)).status).toBe(403);

    expect((await verification.decide(subject.a.userId, { decision: "approve" }, headers)).status).toBe(200);
    await sendPendingSelfie(subject.b.headers);
    expect((await verification.decide(subject.b.userId, { decision: "refuse", reason: "face" }, headers)).status).toBe(200);
    const decided = await verificationsOf();
    expect(decided).toMatchObject([
      { userId: subject.a.userId, status: "verified", refusal: null, pending: null },
      {
        userId: subject.b.userId,
        status: "refused",
        refusal: { reason: "face", label: "Your face is not clearly visible" },
        pending: null,
      },
    ]);
    for (const partner of decided) expect(Date.now() - new Date(partner.decidedAt).getTime()).toBeLessThan(60_000);
  });
});

describe("a moderator's own couple's photo verification", () => {
  it("shows each partner's state as the couple is told it, never a selfie or its pose, and is decided by another moderator", async () => {
    const { couple: own, headers: ownHeaders } = await moderatorCouple();
    const { headers: other } = await moderatorCouple();
    const { pose } = await sendPendingSelfie(own.b.headers);
    await sendPendingSelfie(own.a.headers);

    // Another moderator reads the selfie and its pose, as on any couple.
    expect((await coupleRecordOf(own.coupleId, other)).json.data.verifications[1]).toMatchObject({
      userId: own.b.userId,
      status: "pending",
      pending: { pose: { id: pose }, selfieUrl: `/api/moderation/verifications/${own.b.userId}/selfie` },
    });
    const mine = await coupleRecordOf(own.coupleId, ownHeaders);
    expect(mine.status).toBe(200);
    expect(mine.json.data.verifications).toEqual([
      expect.objectContaining({ userId: own.a.userId, status: "pending", submittedAt: expect.any(String), pending: null }),
      expect.objectContaining({ userId: own.b.userId, status: "pending", submittedAt: expect.any(String), pending: null }),
    ]);
    expect(JSON.stringify(mine.json)).not.toContain("/selfie");
    // Neither their partner's selfie nor their own is theirs to see or decide.
    for (const partner of [own.a, own.b]) {
      expect((await verification.selfie(partner.userId, ownHeaders)).status).toBe(404);
      const refused = await verification.decide(partner.userId, { decision: "approve" }, ownHeaders);
      expect(refused.status).toBe(403);
      expect(refused.json.error.message).toBe(OWN_COUPLE_MESSAGE);
    }

    // Once another moderator decided, the state and its date; the reason only of their own refusal,
    // as a couple is told it: the partner refused is given it, the other partner is not.
    expect((await verification.decide(own.b.userId, { decision: "refuse", reason: "face" }, other)).status).toBe(200);
    expect((await verification.decide(own.a.userId, { decision: "refuse", reason: "face" }, other)).status).toBe(200);
    const decided = (await coupleRecordOf(own.coupleId, ownHeaders)).json.data.verifications;
    expect(decided[1]).toMatchObject({
      userId: own.b.userId,
      status: "refused",
      decidedAt: expect.any(String),
      refusal: null,
      pending: null,
    });
    expect(decided[0]).toMatchObject({
      userId: own.a.userId,
      status: "refused",
      refusal: { reason: "face", label: "Your face is not clearly visible" },
    });
    expect((await coupleRecordOf(own.coupleId, other)).json.data.verifications[1]).toMatchObject({ refusal: { reason: "face" } });
  });
});
