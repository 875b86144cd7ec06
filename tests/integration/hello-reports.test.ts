import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { reports } from "@/db/schema";
import { currentRestriction } from "@/lib/safety/notices";
import { HELLO_NOT_REMOVED } from "@/lib/safety/rules";
import { connections, messagingCouple } from "../support/messages";
import type { TestCouple } from "../support/forum";
import { coupleRecordOf, moderation, moderatorCouple, sanctions } from "../support/moderation";

/** `sender` says hello to a new couple with `note`: the couple asked, and the hello's id. */
async function helloTo(sender: TestCouple, note: string) {
  const asked = await messagingCouple();
  const sent = await connections.send({ coupleId: asked.coupleId, note }, sender.a.headers);
  expect(sent.status).toBe(201);
  return { asked, helloId: sent.json.data.id as string };
}

const reportHello = (helloId: string, reporter: TestCouple, reason = "harassment") =>
  moderation.report({ targetType: "request", targetId: helloId, reason, note: "Read the note" }, reporter.a.headers);

const statusOf = async (reportId: string) => {
  const db = await getDb();
  return (await db.select({ status: reports.status }).from(reports).where(eq(reports.id, reportId)))[0]!.status;
};

describe("reporting a hello", () => {
  it("is for the couple it went to: anyone else reads it as missing, and one person reports it once", async () => {
    const sender = await messagingCouple();
    const { asked, helloId } = await helloTo(sender, "You two look lonely, send me your address");
    const stranger = await messagingCouple();
    for (const who of [stranger, sender]) {
      const refused = await reportHello(helloId, who);
      expect(refused.status).toBe(404);
      expect(refused.json.error.code).toBe("NOT_FOUND");
    }
    expect((await reportHello(helloId, asked)).status).toBe(201);
    expect((await reportHello(helloId, asked)).json.error.code).toBe("ALREADY_REPORTED");
    // Each partner of the couple asked may report it.
    expect((await moderation.report({ targetType: "request", targetId: helloId, reason: "spam" }, asked.b.headers)).status).toBe(201);
  });

  it("shows moderators the hello's words and its couple; it is not removed but dismissed, or decided by acting on the couple", async () => {
    const sender = await messagingCouple();
    const { asked, helloId } = await helloTo(sender, "Send me photos of your wife");
    const mod = await moderatorCouple();
    const reportId = (await reportHello(helloId, asked)).json.data.id as string;

    const queued = (await moderation.queue(mod.headers)).json.data.find((row: { id: string }) => row.id === reportId);
    expect(queued).toMatchObject({
      targetType: "request",
      notes: [{ firstName: expect.any(String), note: "Read the note" }],
      content: { body: "Send me photos of your wife", coupleId: sender.coupleId, coupleName: expect.any(String) },
    });
    // The couple's page counts it against the couple that said hello.
    expect((await coupleRecordOf(sender.coupleId, mod.headers)).json.data.reports).toEqual([
      { reason: "harassment", reports: 1, couples: 1, capped: false },
    ]);

    const removed = await moderation.resolve(reportId, "remove", mod.headers);
    expect(removed.status).toBe(400);
    expect(removed.json.error.message).toBe(HELLO_NOT_REMOVED);
    expect(await statusOf(reportId)).toBe("open");

    // Acting on the couple from the report decides it.
    expect((await sanctions.act(sender.coupleId, { kind: "warn", reason: "harassment", reportId }, mod.headers)).status).toBe(201);
    expect(await statusOf(reportId)).toBe("removed");

    // Another hello's report is dismissed: closed, nothing else changes.
    const second = await helloTo(sender, "Hi again");
    const secondReport = (await reportHello(second.helloId, second.asked, "spam")).json.data.id as string;
    expect((await moderation.resolve(secondReport, "dismiss", mod.headers)).status).toBe(200);
    expect(await statusOf(secondReport)).toBe("dismissed");
  });

  it("counts toward the spam rule: hellos reported by 3 different couples restrict their couple until a moderator decides", async () => {
    const sender = await messagingCouple();
    const db = await getDb();
    for (let i = 0; i < 3; i++) {
      expect(await currentRestriction(db, sender.coupleId)).toBeNull();
      const { asked, helloId } = await helloTo(sender, `Cheap pills ${i}`);
      expect((await reportHello(helloId, asked, "spam")).status).toBe(201);
    }
    expect(await currentRestriction(db, sender.coupleId)).toMatchObject({ kind: "restrict", endsAt: null });
    const stranger = await messagingCouple();
    const refused = await connections.send({ coupleId: stranger.coupleId, note: "One more" }, sender.a.headers);
    expect(refused.status).toBe(403);
  });
});
