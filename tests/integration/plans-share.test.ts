import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { couples, liveEvents, planShares, plans } from "@/db/schema";
import { hashToken } from "@/lib/auth/secrets";
import { sharedPlan } from "@/lib/plans/share";
import { block, connected, messagingCouple } from "../support/messages";
import { moderatorCouple, sanctions } from "../support/moderation";
import { PLACES, plan } from "../support/plans";

const tokenOf = (url: string) => new URL(url).pathname.split("/").pop()!;

/** The plan's links as if made two minutes ago: past SENT_AGAIN_SECONDS, a share then makes a new one. */
const sharedEarlier = async (planId: string) => {
  const db = await getDb();
  await db
    .update(planShares)
    .set({ createdAt: new Date(Date.now() - 120_000) })
    .where(eq(planShares.planId, planId));
};

describe("'Share with a friend'", () => {
  it("makes a long random link that shows what, when, where and the other couple's first names and photo, nothing more", async () => {
    const { one, two, conversationId } = await connected();
    const db = await getDb();
    await db.update(couples).set({ profileImageUrl: "/api/images/couple/abc.jpg" }).where(eq(couples.id, two.coupleId));
    const made = (
      await plan.propose(
        conversationId,
        { title: "Dinner", startsAt: "2026-12-14T19:30", placeId: PLACES.lisbon, venue: "Time Out Market", note: "Secret note" },
        one.a.headers,
      )
    ).json.data;
    const shared = await plan.share(made.id, one.b.headers);
    expect(shared.status).toBe(201);
    expect(shared.json.data.url).toMatch(/^https?:\/\/[^/]+\/plan\/[\w-]{43}$/);
    const token = tokenOf(shared.json.data.url);
    const [row] = await db.select({ hash: planShares.tokenHash }).from(planShares).where(eq(planShares.planId, made.id));
    expect(row!.hash).toBe(hashToken(token));
    expect(row!.hash).not.toContain(token);
    const seen = await sharedPlan(db, token);
    expect(seen).toEqual({
      title: "Dinner",
      startsAt: "2026-12-14T19:30:00+00:00",
      timeZone: "Europe/Lisbon",
      place: { name: "Lisbon", city: "Lisbon", country: "Portugal" },
      venue: "Time Out Market",
      meeting: { firstNames: [two.a.firstName, two.b.firstName], photoUrl: "/api/images/couple/abc.jpg" },
    });
    expect(JSON.stringify(seen)).not.toMatch(/Secret note|Lovelace|@example\.com/);
  });

  it("reads a guessed, altered, replaced or revoked token as no plan; a stranger cannot share", async () => {
    const { one, two, conversationId } = await connected();
    const db = await getDb();
    const made = (
      await plan.propose(conversationId, { title: "Walk", startsAt: "2026-12-20T11:00", placeId: PLACES.lisbon }, two.a.headers)
    ).json.data;
    const first = tokenOf((await plan.share(made.id, one.a.headers)).json.data.url);
    expect(await sharedPlan(db, first)).not.toBeNull();
    for (const guess of [
      "",
      "x".repeat(43),
      `${first.slice(0, 42)}${first.endsWith("A") ? "B" : "A"}`,
      `${first}x`,
      "../../etc",
      first.slice(0, 20),
    ])
      expect(await sharedPlan(db, guess), guess).toBeNull();
    await sharedEarlier(made.id);
    const second = tokenOf((await plan.share(made.id, one.a.headers)).json.data.url);
    expect(await sharedPlan(db, first)).toBeNull();
    expect(await sharedPlan(db, second)).not.toBeNull();
    expect((await plan.stopSharing(made.id, one.b.headers)).status).toBe(204);
    expect(await sharedPlan(db, second)).toBeNull();
    const stranger = await messagingCouple();
    expect((await plan.share(made.id, stranger.a.headers)).status).toBe(404);
    expect((await plan.stopSharing(made.id, stranger.a.headers)).status).toBe(404);
  });

  it("pressed twice, at once or just after, answers one link that works, whoever of the couple presses it", async () => {
    const { one, conversationId } = await connected();
    const db = await getDb();
    const made = (
      await plan.propose(conversationId, { title: "Concert", startsAt: "2026-12-20T21:00", placeId: PLACES.lisbon }, one.a.headers)
    ).json.data;
    const links = async () => db.select({ hash: planShares.tokenHash }).from(planShares).where(eq(planShares.planId, made.id));
    const both = await Promise.all([plan.share(made.id, one.a.headers), plan.share(made.id, one.b.headers)]);
    expect(both.map((res) => res.status)).toEqual([201, 201]);
    const [first, second] = both.map((res) => tokenOf(res.json.data.url));
    expect(second).toBe(first);
    expect(await sharedPlan(db, first!)).not.toBeNull();
    expect(await links()).toEqual([{ hash: hashToken(first!) }]);
    // Sent again in sequence within SENT_AGAIN_SECONDS: the same link, still working.
    const again = tokenOf((await plan.share(made.id, one.a.headers)).json.data.url);
    expect(again).toBe(first);
    expect(await sharedPlan(db, first!)).not.toBeNull();
    // Past it, 'Share' makes a new link and the last stops working.
    await sharedEarlier(made.id);
    const later = tokenOf((await plan.share(made.id, one.b.headers)).json.data.url);
    expect(later).not.toBe(first);
    expect(await sharedPlan(db, first!)).toBeNull();
    expect(await sharedPlan(db, later)).not.toBeNull();
    expect(await links()).toEqual([{ hash: hashToken(later) }]);
  });

  it("stops working once the plan is cancelled (its token goes, as 'Stop sharing' does), whoever cancels it", async () => {
    const { one, two, conversationId } = await connected();
    const db = await getDb();
    const shareOf = async (title: string, startsAt: string) => {
      const made = (await plan.propose(conversationId, { title, startsAt, placeId: PLACES.lisbon }, one.a.headers)).json.data;
      const token = tokenOf((await plan.share(made.id, two.a.headers)).json.data.url);
      expect(await sharedPlan(db, token)).not.toBeNull();
      return { id: made.id as string, token };
    };
    const links = async (id: string) => db.select({ hash: planShares.tokenHash }).from(planShares).where(eq(planShares.planId, id));
    const called = await shareOf("Called off", "2026-12-20T19:30");
    expect((await plan.cancel(called.id, { reason: "Ill" }, one.b.headers)).status).toBe(200);
    expect(await sharedPlan(db, called.token)).toBeNull();
    expect(await links(called.id)).toEqual([]);
    // A plan cancelled before this rule, its token still stored, is not shown either.
    const kept = await shareOf("Kept token", "2026-12-21T19:30");
    await db.update(plans).set({ cancelledAt: new Date() }).where(eq(plans.id, kept.id));
    expect(await sharedPlan(db, kept.token)).toBeNull();
    // Cancelled by a block: the same.
    const blocked = await shareOf("Before the block", "2026-12-22T19:30");
    await block(one.coupleId, two.b.headers);
    expect(await sharedPlan(db, blocked.token)).toBeNull();
    expect(await links(blocked.id)).toEqual([]);
  });

  it("is each couple's own: the other couple's link, made or stopped, leaves it working, each showing the couple its sharer meets", async () => {
    const { one, two, conversationId } = await connected();
    const db = await getDb();
    const made = (
      await plan.propose(conversationId, { title: "Picnic", startsAt: "2026-12-20T12:00", placeId: PLACES.lisbon }, one.a.headers)
    ).json.data;
    const ours = tokenOf((await plan.share(made.id, one.a.headers)).json.data.url);
    const theirs = tokenOf((await plan.share(made.id, two.a.headers)).json.data.url);
    expect((await sharedPlan(db, ours))?.meeting?.firstNames).toEqual([two.a.firstName, two.b.firstName]);
    expect((await sharedPlan(db, theirs))?.meeting?.firstNames).toEqual([one.a.firstName, one.b.firstName]);
    expect((await plan.stopSharing(made.id, two.b.headers)).status).toBe(204);
    expect(await sharedPlan(db, theirs)).toBeNull();
    expect(await sharedPlan(db, ours)).not.toBeNull();
    tokenOf((await plan.share(made.id, two.b.headers)).json.data.url);
    expect(await sharedPlan(db, ours)).not.toBeNull();
  });

  it("shows no photo of a couple that hid from the directory: an outsider sees its first names only", async () => {
    const { one, two, conversationId } = await connected();
    const db = await getDb();
    await db.update(couples).set({ profileImageUrl: "/api/images/couple/hidden.jpg", isVisible: true }).where(eq(couples.id, two.coupleId));
    const made = (
      await plan.propose(conversationId, { title: "Lunch", startsAt: "2026-12-20T13:00", placeId: PLACES.lisbon }, one.a.headers)
    ).json.data;
    const token = tokenOf((await plan.share(made.id, one.a.headers)).json.data.url);
    expect((await sharedPlan(db, token))?.meeting?.photoUrl).toBe("/api/images/couple/hidden.jpg");
    await db.update(couples).set({ isVisible: false }).where(eq(couples.id, two.coupleId));
    expect((await sharedPlan(db, token))?.meeting).toEqual({ firstNames: [two.a.firstName, two.b.firstName], photoUrl: null });
  });

  it("stops working once the conversation ends: a couple suspended during the meetup shows no names or photo", async () => {
    const { one, two, conversationId } = await connected();
    const db = await getDb();
    await db.update(couples).set({ profileImageUrl: "/api/images/couple/suspended.jpg" }).where(eq(couples.id, one.coupleId));
    const made = (
      await plan.propose(conversationId, { title: "Tapas", startsAt: "2026-12-20T19:30", placeId: PLACES.lisbon }, two.a.headers)
    ).json.data;
    const token = tokenOf((await plan.share(made.id, two.b.headers)).json.data.url);
    // The meetup has started (an hour ago): a suspension no longer cancels it, it ends the conversation.
    const started = new Date(Date.now() - 3_600_000);
    await db
      .update(plans)
      .set({ startsAt: started, startsLocal: started.toISOString().slice(0, 16) })
      .where(eq(plans.id, made.id));
    expect((await sharedPlan(db, token))?.meeting?.photoUrl).toBe("/api/images/couple/suspended.jpg");
    const { headers } = await moderatorCouple();
    expect((await sanctions.act(one.coupleId, { kind: "suspend", reason: "hate" }, headers)).status).toBe(201);
    expect(await sharedPlan(db, token)).toBeNull();
  });

  it("tells the sharer's couple, and only them, that its link works, from the making to 'Stop sharing' or a day after the meetup", async () => {
    const { one, two, conversationId } = await connected();
    const db = await getDb();
    const made = (
      await plan.propose(conversationId, { title: "Drinks", startsAt: "2026-12-18T21:00", placeId: PLACES.lisbon }, one.a.headers)
    ).json.data;
    const sharing = async (h: typeof one.a.headers) => (await plan.read(made.id, h)).json.data.sharing as boolean;
    expect(await sharing(one.a.headers)).toBe(false);
    expect((await plan.share(made.id, one.b.headers)).status).toBe(201);
    expect([await sharing(one.a.headers), await sharing(one.b.headers), await sharing(two.a.headers)]).toEqual([true, true, false]);
    // Once the meetup has begun the link still works, so the card still offers to stop it.
    await db
      .update(plans)
      .set({ startsAt: new Date(Date.now() - 3_600_000), endsAt: null })
      .where(eq(plans.id, made.id));
    expect(await sharing(one.a.headers)).toBe(true);
    expect((await plan.stopSharing(made.id, one.a.headers)).status).toBe(204);
    expect(await sharing(one.b.headers)).toBe(false);
    expect((await plan.share(made.id, one.a.headers)).status).toBe(201);
    expect(await sharing(one.a.headers)).toBe(true);
    // A block ends the conversation during the meetup (not cancelled: it has begun): the link opens nothing, so it is not working.
    expect((await block(one.coupleId, two.a.headers)).status).toBe(200);
    expect(await sharing(one.a.headers)).toBe(false);
  });

  it("tells the partner's open card live that the couple's link works, and that it stopped, so they do not replace it unknowing", async () => {
    const { one, two, conversationId } = await connected();
    const db = await getDb();
    const made = (
      await plan.propose(conversationId, { title: "Drinks", startsAt: "2026-12-18T21:00", placeId: PLACES.lisbon }, one.a.headers)
    ).json.data;
    const live = async () =>
      (
        await db
          .select({ userId: liveEvents.userId })
          .from(liveEvents)
          .where(and(eq(liveEvents.kind, "plan"), eq(liveEvents.subjectId, made.id)))
      ).map((row) => row.userId);
    const before = await live();
    const count = (rows: string[], userId: string) => rows.filter((id) => id === userId).length;
    expect((await plan.share(made.id, one.b.headers)).status).toBe(201);
    const shared = await live();
    expect(count(shared, one.a.userId) - count(before, one.a.userId)).toBe(1);
    expect(count(shared, two.a.userId) - count(before, two.a.userId), "the other couple's sharing did not change").toBe(0);
    expect((await plan.stopSharing(made.id, one.a.headers)).status).toBe(204);
    expect(count(await live(), one.b.userId) - count(shared, one.b.userId)).toBe(1);
  });

  it("stops telling the couple its link works a day after the meetup", async () => {
    const { one, conversationId } = await connected();
    const db = await getDb();
    const made = (
      await plan.propose(conversationId, { title: "Brunch", startsAt: "2026-12-19T11:00", placeId: PLACES.lisbon }, one.a.headers)
    ).json.data;
    expect((await plan.share(made.id, one.a.headers)).status).toBe(201);
    await db
      .update(plans)
      .set({ startsAt: new Date(Date.now() - 28 * 3_600_000) })
      .where(eq(plans.id, made.id));
    expect((await plan.read(made.id, one.a.headers)).json.data.sharing).toBe(false);
  });

  it("expires a day after the meetup (its end, or start plus 3 hours)", async () => {
    const { one, conversationId } = await connected();
    const db = await getDb();
    const made = (
      await plan.propose(conversationId, { title: "Brunch", startsAt: "2026-12-20T11:00", placeId: PLACES.lisbon }, one.a.headers)
    ).json.data;
    const token = tokenOf((await plan.share(made.id, one.a.headers)).json.data.url);
    expect(await sharedPlan(db, token, new Date("2026-12-21T13:59:00Z"))).not.toBeNull();
    expect(await sharedPlan(db, token, new Date("2026-12-21T14:00:00Z"))).toBeNull();
  });
});
