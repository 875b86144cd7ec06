import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as resolveRoute } from "@/app/api/moderation/reports/[id]/[action]/route";
import { GET as openReportsRoute } from "@/app/api/moderation/reports/route";
import { POST as reportRoute } from "@/app/api/reports/route";
import { getDb } from "@/db/client";
import { resultRows } from "@/db/result-rows";
import { moderationLog, notifications, plans, reports, users } from "@/db/schema";
import { call } from "../support/api";
import type { Headers } from "../support/forum";
import { connected, messagingCouple } from "../support/messages";
import { coupleRecordOf, sanctions } from "../support/moderation";
import { daysAhead, PLACES, plan } from "../support/plans";
import { PLAN_TEXTS } from "@/lib/plans/rules";

const report = (body: unknown, h: Headers) => call(reportRoute, "POST", "/api/reports", { body, headers: h });
const openReports = (h: Headers) => call(openReportsRoute, "GET", "/api/moderation/reports", { headers: h });
const resolve = (id: string, action: string, h: Headers) =>
  call(resolveRoute, "POST", `/api/moderation/reports/${id}/${action}`, { headers: h, params: { id, action } });

/** Two talking couples with a plan at Time Out Market, Lisbon; `yesterday` moves it into the past, as time would. */
async function planned(yesterday: boolean) {
  const four = await connected();
  const made = (
    await plan.propose(
      four.conversationId,
      { title: "Dinner; and a walk", startsAt: daysAhead(20), placeId: PLACES.lisbon, venue: "Time Out Market" },
      four.one.a.headers,
    )
  ).json.data;
  if (yesterday) {
    const at = new Date(Date.now() - 24 * 3_600_000);
    const db = await getDb();
    await db
      .update(plans)
      .set({ startsAt: at, startsLocal: at.toISOString().slice(0, 16) })
      .where(eq(plans.id, made.id));
  }
  return { ...four, id: made.id as string };
}

/** A fifth couple's partner made a moderator (never one of the four). */
async function moderator() {
  const fifth = await messagingCouple();
  const db = await getDb();
  await db.update(users).set({ role: "admin" }).where(eq(users.id, fifth.a.userId));
  return fifth.a;
}

describe("reporting a plan", () => {
  it("'Something went wrong' attaches the plan; only the four may report it, and it names the other couple", async () => {
    const { one, two, id } = await planned(true);
    const wrong = await plan.feedback(id, "went_wrong", one.a.headers);
    expect(wrong.json.data).toEqual({ answer: "went_wrong", report: { targetType: "plan", targetId: id } });
    const stranger = await messagingCouple();
    expect((await report({ targetType: "plan", targetId: id, reason: "harassment" }, stranger.a.headers)).status).toBe(404);
    expect((await report({ targetType: "plan", targetId: randomUUID(), reason: "harassment" }, one.a.headers)).status).toBe(404);
    const filed = await report({ targetType: "plan", targetId: id, reason: "harassment", note: "They never came" }, one.a.headers);
    expect(filed.status).toBe(201);
    expect((await report({ targetType: "plan", targetId: id, reason: "spam" }, one.a.headers)).status).toBe(409);
    // The other couple may report the same plan: each report names the couple that did not file it.
    expect((await report({ targetType: "plan", targetId: id, reason: "other" }, two.b.headers)).status).toBe(201);

    const mod = await moderator();
    const queue = (await openReports(mod.headers)).json.data.filter((r: { targetId: string }) => r.targetId === id);
    // Each couple's report is its own row, told apart by the couple it names (the reporter's account never reaches the queue).
    const byOne = queue.find((r: { content: { coupleId: string } }) => r.content.coupleId === two.coupleId);
    const byTwo = queue.find((r: { content: { coupleId: string } }) => r.content.coupleId === one.coupleId);
    expect(queue).toHaveLength(2);
    expect(byOne).toMatchObject({
      targetType: "plan",
      notes: [{ firstName: expect.any(String), note: "They never came" }],
      content: { title: "Dinner; and a walk", coupleId: two.coupleId },
    });
    expect(byOne.content.body).toMatch(/^When: \w{3} \d{1,2} \w{3}, \d{2}:\d{2} in Lisbon\nWhere: Time Out Market, Lisbon$/);
    expect(byTwo.content).toMatchObject({ coupleId: one.coupleId, coupleName: one.name });
    // Moderators see what, when and where: nothing of the conversation.
    expect(Object.keys(byOne.content).sort()).toEqual(["body", "changedSince", "coupleId", "coupleName", "postId", "title"]);
    expect(byOne.conversation).toBeUndefined();
  });

  it("'remove' cancels a plan still to come and tells the four; the log names the couple reported", async () => {
    const { one, two, id, conversationId } = await planned(false);
    const filed = await report({ targetType: "plan", targetId: id, reason: "spam" }, two.a.headers);
    expect(filed.status).toBe(201);
    const mod = await moderator();
    expect((await resolve(filed.json.data.id, "remove", mod.headers)).status).toBe(200);
    const read = (await plan.read(id, one.a.headers)).json.data;
    expect(read.cancelledAt).not.toBeNull();
    const db = await getDb();
    const told = await db
      .select({ userId: notifications.userId })
      .from(notifications)
      .where(and(eq(notifications.type, "plan_cancelled"), eq(notifications.conversationId, conversationId)));
    expect(told.map((row) => row.userId).sort()).toEqual([one.a.userId, one.b.userId, two.a.userId, two.b.userId].sort());
    const [logged] = await db
      .select({ action: moderationLog.action, coupleId: moderationLog.coupleId, targetType: moderationLog.targetType })
      .from(moderationLog)
      .where(eq(moderationLog.targetId, id));
    expect(logged).toEqual({ action: "report_removed", coupleId: one.coupleId, targetType: "plan" });
    const [closed] = await db.select({ status: reports.status }).from(reports).where(eq(reports.id, filed.json.data.id));
    expect(closed!.status).toBe("removed");
  });

  it("'remove' takes the plan's words off its card, past or to come, and the notifications that quote them", async () => {
    for (const past of [true, false]) {
      const { one, two, id, conversationId } = await planned(past);
      expect((await plan.change(id, { note: "Call us on 555 0101" }, two.a.headers)).status).toBe(past ? 409 : 200);
      const filed = await report({ targetType: "plan", targetId: id, reason: "harassment" }, two.a.headers);
      expect(filed.status).toBe(201);
      const mod = await moderator();
      expect((await resolve(filed.json.data.id, "remove", mod.headers)).status).toBe(200);
      for (const person of [one.a, two.b]) {
        const read = (await plan.read(id, person.headers)).json.data;
        expect(read).toMatchObject({ title: PLAN_TEXTS.removed, venue: null, note: null, cancelReason: null });
        expect(JSON.stringify(read)).not.toMatch(/Dinner|Time Out|555 0101/);
      }
      const db = await getDb();
      const quoting = await db
        .select({ title: notifications.title })
        .from(notifications)
        .where(and(eq(notifications.conversationId, conversationId), sql`${notifications.title} like '%Dinner; and a walk%'`));
      expect(quoting).toEqual([]);
    }
  });

  it("'remove' withdraws the notifications that quote the words reported, though the plan was renamed since", async () => {
    const { one, two, id, conversationId } = await planned(false);
    const filed = await report({ targetType: "plan", targetId: id, reason: "harassment" }, two.a.headers);
    expect(filed.status).toBe(201);
    // The reported couple renames it before a moderator looks (the queue shows it changed since).
    expect((await plan.change(id, { title: "Lunch" }, one.a.headers)).status).toBe(200);
    const mod = await moderator();
    expect((await resolve(filed.json.data.id, "remove", mod.headers)).status).toBe(200);
    const db = await getDb();
    const quoting = await db
      .select({ title: notifications.title })
      .from(notifications)
      .where(and(eq(notifications.conversationId, conversationId), sql`${notifications.title} like '%Dinner; and a walk%'`));
    expect(quoting, "the reported what is in no bell").toEqual([]);
    const mail = await db.execute(
      sql`select 1 from email_outbox where conversation_id = ${conversationId} and text like '%Dinner; and a walk%'`,
    );
    expect(resultRows(mail), "nor in a waiting e-mail").toEqual([]);
  });

  it("'remove' withdraws the removed plan's notices and e-mails only: another plan of the same what keeps its own", async () => {
    const { one, two, id, conversationId } = await planned(false);
    const other = (
      await plan.propose(conversationId, { title: "Dinner; and a walk", startsAt: daysAhead(21), placeId: PLACES.lisbon }, one.a.headers)
    ).json.data.id as string;
    const db = await getDb();
    const noticesOf = (planId: string) =>
      db.select({ userId: notifications.userId }).from(notifications).where(eq(notifications.planId, planId));
    const mailOf = async (planId: string) =>
      resultRows<{ id: string; text: string; last_error: string | null }>(
        await db.execute(sql`select id, text, last_error from email_outbox where plan_id = ${planId} and delivered_at is null order by id`),
      );
    expect(await noticesOf(other)).toHaveLength(3);
    const waiting = await mailOf(other);
    expect(waiting.length, "the other plan's e-mails wait to leave").toBeGreaterThan(0);
    const removedMail = (await mailOf(id)).map((mail) => mail.id);
    expect(removedMail.length).toBeGreaterThan(0);

    const filed = await report({ targetType: "plan", targetId: id, reason: "harassment" }, two.a.headers);
    const mod = await moderator();
    expect((await resolve(filed.json.data.id, "remove", mod.headers)).status).toBe(200);

    const given = (await mailOf(id)).filter((mail) => removedMail.includes(mail.id));
    expect(
      given.map((mail) => [mail.text, mail.last_error !== null]),
      "the removed plan's are given up",
    ).toEqual(removedMail.map(() => ["", true]));
    expect(await noticesOf(other)).toHaveLength(3);
    expect(await mailOf(other), "its e-mails still go, words and all").toEqual(waiting);
    expect(waiting.every((mail) => mail.text.includes("Dinner; and a walk") && mail.last_error === null)).toBe(true);
  });

  it("'remove' withdraws the notices written before notices named their plan by their exact title in its conversation", async () => {
    const { one, two, id, conversationId } = await planned(false);
    await plan.propose(conversationId, { title: "Picnic", startsAt: daysAhead(21), placeId: PLACES.lisbon }, one.a.headers);
    const db = await getDb();
    // As migration 0068 found them: no plan named.
    await db.update(notifications).set({ planId: null }).where(eq(notifications.conversationId, conversationId));
    const titles = async () =>
      (await db.select({ title: notifications.title }).from(notifications).where(eq(notifications.conversationId, conversationId)))
        .map((row) => row.title)
        .filter((title) => title.startsWith("New plan: "))
        .sort();
    expect(await titles()).toEqual([...Array(3).fill("New plan: Dinner; and a walk"), ...Array(3).fill("New plan: Picnic")]);
    const filed = await report({ targetType: "plan", targetId: id, reason: "harassment" }, two.a.headers);
    expect((await resolve(filed.json.data.id, "remove", (await moderator()).headers)).status).toBe(200);
    expect((await titles()).filter((title) => title.includes("Dinner"))).toEqual([]);
    expect((await titles()).filter((title) => title === "New plan: Picnic")).toHaveLength(3);
  });

  it("'dismiss' leaves the plan as it was", async () => {
    const { one, id } = await planned(false);
    const filed = await report({ targetType: "plan", targetId: id, reason: "other" }, one.b.headers);
    const mod = await moderator();
    expect((await resolve(filed.json.data.id, "dismiss", mod.headers)).status).toBe(200);
    expect((await plan.read(id, one.a.headers)).json.data.cancelledAt).toBeNull();
  });

  it("counts against the couple that did not file it: acting from it works and closes only that couple's reports", async () => {
    const { one, two, id } = await planned(true);
    const byOne = (await report({ targetType: "plan", targetId: id, reason: "harassment" }, one.a.headers)).json.data.id as string;
    const byTwo = (await report({ targetType: "plan", targetId: id, reason: "spam" }, two.a.headers)).json.data.id as string;
    const mod = await moderator();
    // The couple's page lists the plan report against it, not the one it filed.
    const record = (await coupleRecordOf(two.coupleId, mod.headers)).json.data;
    expect(record.reports).toEqual([{ reason: "harassment", reports: 1, couples: 1, capped: false }]);

    const acted = await sanctions.act(two.coupleId, { kind: "warn", reason: "harassment", reportId: byOne }, mod.headers);
    expect(acted.status).toBe(201);
    const db = await getDb();
    const statusOf = async (reportId: string) =>
      (await db.select({ status: reports.status }).from(reports).where(eq(reports.id, reportId)))[0]!.status;
    expect(await statusOf(byOne)).toBe("removed");
    // The other couple's report against the first is not decided by it.
    expect(await statusOf(byTwo)).toBe("open");
  });

  it("deciding one couple's report of a plan leaves the other couple's report of it open", async () => {
    const { one, two, id } = await planned(true);
    const byOne = (await report({ targetType: "plan", targetId: id, reason: "harassment" }, one.a.headers)).json.data.id as string;
    const byTwo = (await report({ targetType: "plan", targetId: id, reason: "spam" }, two.b.headers)).json.data.id as string;
    const mod = await moderator();
    expect((await resolve(byOne, "dismiss", mod.headers)).status).toBe(200);
    const queued = (await openReports(mod.headers)).json.data.map((r: { id: string }) => r.id);
    expect(queued).not.toContain(byOne);
    expect(queued).toContain(byTwo);
    expect((await resolve(byTwo, "dismiss", mod.headers)).status).toBe(200);
  });
});
