import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { reports } from "@/db/schema";
import { forum, postBody } from "../support/forum";
import { block, connected, connections, messagingCouple, talk } from "../support/messages";
import { coupleRecordOf, moderation, moderatorCouple, sanctions } from "../support/moderation";

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
      blocksReceived: 1,
      // The hello that opened the conversation, and the one just sent.
      hellos30Days: { sent: 2, accepted: 1, unanswered: 1 },
      actions: [],
    });

    // Acting from the report closes its open reports, and the record lists the action.
    const acted = await sanctions.act(
      subject.coupleId,
      { kind: "restrict", reason: "harassment", days: 1, reportId: filed.json.data.id },
      headers,
    );
    expect(acted.status).toBe(201);
    const db = await getDb();
    const [row] = await db.select({ status: reports.status }).from(reports).where(eq(reports.id, filed.json.data.id));
    expect(row!.status).toBe("removed");
    const after = await coupleRecordOf(subject.coupleId, headers);
    expect(after.json.data.actions).toMatchObject([{ kind: "restrict", reason: "harassment", liftedAt: null }]);
    expect((await coupleRecordOf("00000000-0000-4000-8000-000000000000", headers)).status).toBe(404);
  });
});
