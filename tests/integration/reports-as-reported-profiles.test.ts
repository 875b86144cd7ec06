import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { connectionRequests, couples, plans, reports } from "@/db/schema";
import { deleteAccount } from "@/lib/account/deletion";
import { PASSWORD } from "../support/api";
import type { Headers } from "../support/forum";
import { connected, connections, messagingCouple } from "../support/messages";
import { moderation, moderatorCouple } from "../support/moderation";
import { daysAhead, PLACES, plan } from "../support/plans";

type QueueEntry = {
  id: string;
  targetId: string;
  content: { title: string | null; body: string; changedSince: { title: string | null; body: string | null } | null } | null;
};

const queueFor = async (targetId: string, h: Headers): Promise<QueueEntry[]> =>
  (await moderation.queue(h)).json.data.filter((entry: QueueEntry) => entry.targetId === targetId);

/** The words kept with the reports of a target. */
const copiesOf = async (targetId: string) => {
  const db = await getDb();
  return db.select({ title: reports.reportedTitle, body: reports.reportedBody }).from(reports).where(eq(reports.targetId, targetId));
};

describe("the moderation queue shows the words as reported", () => {
  it("of a hello: its note stays when it changes or goes; its sender's account deleted, the copy goes, their partner's stays", async () => {
    const sender = await messagingCouple();
    const asked = await messagingCouple();
    const askedToo = await messagingCouple();
    const { headers: moderator } = await moderatorCouple();
    const hello = (await connections.send({ coupleId: asked.coupleId, note: "Send us your address" }, sender.a.headers)).json.data
      .id as string;
    const partners = (await connections.send({ coupleId: askedToo.coupleId, note: "Hi from the other one" }, sender.b.headers)).json.data
      .id as string;
    expect((await moderation.report({ targetType: "request", targetId: hello, reason: "harassment" }, asked.a.headers)).status).toBe(201);
    await moderation.report({ targetType: "request", targetId: partners, reason: "spam" }, askedToo.a.headers);

    const db = await getDb();
    await db.update(connectionRequests).set({ note: "Hello there" }).where(eq(connectionRequests.id, hello));
    expect((await queueFor(hello, moderator))[0]!.content).toMatchObject({
      title: null,
      body: "Send us your address",
      changedSince: { title: null, body: "Hello there" },
    });

    // A hello gone (as it goes with a couple) still reads as reported, deleted since.
    const gone = await messagingCouple();
    const goneHello = (await connections.send({ coupleId: gone.coupleId, note: "Last chance" }, sender.b.headers)).json.data.id as string;
    await moderation.report({ targetType: "request", targetId: goneHello, reason: "spam" }, gone.a.headers);
    await db.delete(connectionRequests).where(eq(connectionRequests.id, goneHello));
    expect((await queueFor(goneHello, moderator))[0]!.content).toMatchObject({
      body: "Last chance",
      changedSince: { title: null, body: null },
    });

    await deleteAccount(db, sender.a.userId, PASSWORD);
    expect(await copiesOf(hello)).toEqual([{ title: null, body: null }]);
    expect(await copiesOf(partners)).toEqual([{ title: null, body: "Hi from the other one" }]);
    // The copy erased, the queue shows the hello as it is now (its note erased with its sender).
    expect((await queueFor(hello, moderator))[0]!.content).toMatchObject({ body: "", changedSince: null });
  });

  it("of a plan: what, when and where stay when it is changed or deleted, and with the plan when its note's writer goes; never its note", async () => {
    const { one, two, conversationId } = await connected();
    const { headers: moderator } = await moderatorCouple();
    const proposed = { title: "Drinks", startsAt: daysAhead(20), placeId: PLACES.lisbon, venue: "Time Out Market" };
    const made = (await plan.propose(conversationId, { ...proposed, note: "Bring cash only, no cards" }, one.a.headers)).json.data;
    expect((await moderation.report({ targetType: "plan", targetId: made.id, reason: "spam" }, two.a.headers)).status).toBe(201);
    const [entry] = await queueFor(made.id, moderator);
    expect(entry!.content).toMatchObject({ title: "Drinks", changedSince: null });
    expect(entry!.content!.body).toMatch(/^When: .+ in Lisbon\nWhere: Time Out Market, Lisbon$/);
    const reported = entry!.content!.body;

    expect((await plan.change(made.id, { title: "Coffee", note: "See you there" }, one.a.headers)).status).toBe(200);
    const changed = (await queueFor(made.id, moderator))[0]!.content!;
    expect(changed).toMatchObject({ title: "Drinks", body: reported, changedSince: { title: "Coffee" } });

    // The note's writer deleted: the plan keeps what, when and where, and so does the copy.
    const again = (await plan.propose(conversationId, { ...proposed, note: "Bring cash" }, one.a.headers)).json.data;
    await moderation.report({ targetType: "plan", targetId: again.id, reason: "spam" }, two.a.headers);
    const db = await getDb();
    await deleteAccount(db, one.a.userId, PASSWORD);
    expect(await copiesOf(again.id)).toEqual([{ title: "Drinks", body: reported }]);

    await db.delete(plans).where(eq(plans.id, made.id));
    expect((await queueFor(made.id, moderator))[0]!.content).toMatchObject({
      title: "Drinks",
      body: reported,
      changedSince: { title: null, body: null },
    });
  });

  it("of a couple: its name and 'about us' stay when they change; the copy goes only when the couple does", async () => {
    const reported = await messagingCouple();
    const reporter = await messagingCouple();
    const { headers: moderator } = await moderatorCouple();
    const db = await getDb();
    await db.update(couples).set({ bio: "We sell followers" }).where(eq(couples.id, reported.coupleId));
    expect(
      (await moderation.report({ targetType: "couple", targetId: reported.coupleId, reason: "spam" }, reporter.a.headers)).status,
    ).toBe(201);
    await db.update(couples).set({ coupleName: "Quiet Ones", bio: "We like walks" }).where(eq(couples.id, reported.coupleId));
    expect((await queueFor(reported.coupleId, moderator))[0]!.content).toMatchObject({
      title: reported.name,
      body: "We sell followers",
      changedSince: { title: "Quiet Ones", body: "We like walks" },
    });

    // One partner gone, the couple stays, and its copy with it.
    await deleteAccount(db, reported.b.userId, PASSWORD);
    expect(await copiesOf(reported.coupleId)).toEqual([{ title: reported.name, body: "We sell followers" }]);
    await deleteAccount(db, reported.a.userId, PASSWORD);
    expect(await copiesOf(reported.coupleId)).toEqual([{ title: null, body: null }]);
    expect((await queueFor(reported.coupleId, moderator))[0]!.content).toBeNull();
  });
});
