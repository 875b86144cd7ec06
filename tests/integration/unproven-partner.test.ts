import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { notifications, plans, users } from "@/db/schema";
import { runDueWork } from "@/lib/scheduled/service";
import type { TestCouple } from "../support/forum";
import { connected, connections, messagingCouple } from "../support/messages";
import { daysAhead, keptApart, PLACES, plan } from "../support/plans";

/**
 * Partner B as the invitation's shareable link leaves them: an account nobody proved the address
 * of (lib/membership/partner.ts unprovenPartner), which cannot sign in. A decision that waits on
 * both partners must not wait on them; once they prove the address, it does.
 */
async function unproven(couple: TestCouple) {
  const db = await getDb();
  await db.update(users).set({ registrationType: "partner_invitation", emailVerifiedAt: null }).where(eq(users.id, couple.b.userId));
}

/** What verifyEmail does to such an account (lib/auth/email-verification.ts). */
async function proves(couple: TestCouple) {
  const db = await getDb();
  await db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, couple.b.userId));
}

describe("a hello to a couple who both approve, whose partner 2 has not proved the address", () => {
  it("opens on partner A's acceptance alone, and the incoming list waits on partner A only", async () => {
    const us = await messagingCouple();
    const them = await messagingCouple({ bothApprove: true });
    await unproven(them);
    const sent = await connections.send({ coupleId: them.coupleId, note: "Hello" }, us.a.headers);
    const [listed] = (await connections.list("incoming", them.a.headers)).json.data;
    expect(listed.approvals).toEqual([{ firstName: them.a.firstName, accepted: false }]);
    const res = await connections.accept(sent.json.data.id, them.a.headers);
    expect(res.json.data).toEqual({ status: "accepted", conversationId: expect.any(String) });
  });

  it("waits on partner 2 again once they proved the address", async () => {
    const us = await messagingCouple();
    const them = await messagingCouple({ bothApprove: true });
    await unproven(them);
    await proves(them);
    const sent = await connections.send({ coupleId: them.coupleId, note: "Hello" }, us.a.headers);
    const res = await connections.accept(sent.json.data.id, them.a.headers);
    expect(res.json.data).toEqual({ status: "pending", waitingFor: them.b.firstName });
  });
});

describe("a plan with a couple whose partner 2 has not proved the address", () => {
  it("is 'Confirmed' once the three who can answer are going; the partner who proves the address then counts", async () => {
    const { one, two, conversationId } = await connected();
    await unproven(two);
    const made = await plan.propose(conversationId, { title: "Dinner", startsAt: daysAhead(15), placeId: PLACES.lisbon }, one.a.headers);
    const id = made.json.data.id as string;
    for (const person of [one.a, one.b]) await plan.answer(id, "going", person.headers);
    const three = await plan.answer(id, "going", two.a.headers);
    expect(three.json.data.confirmed).toBe(true);
    expect(three.json.data.answers.map((a: { userId: string }) => a.userId)).not.toContain(two.b.userId);

    await proves(two);
    const four = (await plan.read(id, two.b.headers)).json.data;
    expect(four.confirmed).toBe(false);
    expect(four.answers.find((a: { userId: string }) => a.userId === two.b.userId).answer).toBeNull();
    expect((await plan.answer(id, "going", two.b.headers)).json.data.confirmed).toBe(true);
  });

  it("'Not for us' from partner A alone keeps the couples apart", async () => {
    const { one, two, conversationId } = await connected();
    await unproven(two);
    const made = await plan.propose(conversationId, { title: "Dinner", startsAt: daysAhead(15), placeId: PLACES.lisbon }, one.a.headers);
    const db = await getDb();
    const yesterday = new Date(Date.now() - 24 * 3_600_000);
    await db
      .update(plans)
      .set({ startsAt: yesterday, startsLocal: yesterday.toISOString().slice(0, 16) })
      .where(eq(plans.id, made.json.data.id));
    expect((await plan.feedback(made.json.data.id, "not_for_us", two.a.headers)).status).toBe(200);
    expect(await keptApart(one.coupleId, two.coupleId)).toEqual([one.coupleId, two.coupleId].sort());
  });

  it("is not followed by 'How was it?' when partner A, the one of their couple who can answer, said they can't come", async () => {
    const { one, two, conversationId } = await connected();
    await unproven(two);
    const made = await plan.propose(conversationId, { title: "Dinner", startsAt: daysAhead(15), placeId: PLACES.lisbon }, one.a.headers);
    expect((await plan.answer(made.json.data.id, "cant", two.a.headers)).status).toBe(200);
    const db = await getDb();
    const yesterday = new Date(Date.now() - 24 * 3_600_000);
    await db
      .update(plans)
      .set({ startsAt: yesterday, startsLocal: yesterday.toISOString().slice(0, 16) })
      .where(eq(plans.id, made.json.data.id));
    await runDueWork(db);
    const asked = await db
      .select({ userId: notifications.userId })
      .from(notifications)
      .where(and(eq(notifications.type, "plan_feedback"), eq(notifications.conversationId, conversationId)));
    expect(asked).toEqual([]);
  });
});
