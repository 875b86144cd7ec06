import { and, eq, inArray, isNull } from "drizzle-orm";
import type postgres from "postgres";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { coupleBlocks, couples, discoverSummaries, invitations, locations, notifications, users } from "@/db/schema";
import { userAccount } from "@/lib/auth/users";
import { discoverSuggestions, SUMMARY_TTL_MS } from "@/lib/discover/queries";
import { dismissSuggestion } from "@/lib/discover/service";
import { loadCoupleProfile } from "@/lib/couples/queries";
import { loadDashboard } from "@/lib/dashboard/queries";
import { recordWelcome } from "@/lib/dashboard/service";
import { cancelInvitation, resendInvitation } from "@/lib/invitations/manage";
import { listPosts } from "@/lib/forum/queries";
import { listPostsQuerySchema } from "@/lib/forum/schemas";
import { latestNotifications } from "@/lib/notifications/queries";
import { notificationView } from "@/lib/notifications/rules";
import { upcomingPlans } from "@/lib/plans/queries";
import { dashboardFinds } from "../support/bulk-couples";
import { forumCouple, LISBON, PORTO, SINTRA, type TestCouple } from "../support/forum";
import { invited, partnerA, sentEarlier } from "../support/invitations";
import { block, connected } from "../support/messages";
import { actingA, daysAhead, PLACES, plan } from "../support/plans";
import { recordingStatements } from "../support/query-plan";
import { onPostgres } from "../support/test-database";

/** Beside Porto (about 8 km), away from the Lisbon couples the near card's test counts. */
const MATOSINHOS = { lat: 41.18207, lng: -8.68908, city: "Matosinhos", country: "Portugal" };

describe("the dashboard's data", () => {
  it.skipIf(!onPostgres())(
    "reads its cards of couples in two statements in a row: the stored lists with the viewer, then where the couple stands with them",
    async () => {
      const us = await forumCouple({ place: LISBON });
      await forumCouple({ place: SINTRA });
      const db = await getDb();
      // The first read stores the lists; the next reads them.
      await dashboardFinds(db, us.a.userId, { suggestions: 3, near: 5 });
      const { logging, logged } = recordingStatements(db);
      const { near } = await dashboardFinds(logging, us.a.userId, { suggestions: 3, near: 5 });
      expect(near!.length).toBeGreaterThan(0);
      expect(logged).toHaveLength(2);
    },
  );

  it.skipIf(!onPostgres())(
    "asks where the couple stands with the couples its cards show, not with every couple its stored lists hold",
    async () => {
      // Far from the other tests' couples, which must not crowd this one's near card nor be crowded out.
      const here = { lat: 61.5, lng: 23.76, city: "Tampere", country: "Finland" };
      const us = await forumCouple({ place: here });
      for (let i = 0; i < 8; i++) await forumCouple({ place: { ...here, lat: here.lat + i * 0.01 } });
      const db = await getDb();
      await dashboardFinds(db, us.a.userId, { suggestions: 3, near: 5 });
      const { logging, logged } = recordingStatements(db);
      const { suggestions, near } = await dashboardFinds(logging, us.a.userId, { suggestions: 1, near: 2 });
      expect(near).toHaveLength(2);
      const shown = new Set([...suggestions, ...near!].map((card) => card.coupleId));
      const asked = logged.at(-1)!.params.find(Array.isArray) as string[];
      expect(new Set(asked)).toEqual(shown);
    },
  );

  it.skipIf(!onPostgres())(
    "reads in five statements: the overview with the bell's newest and the upcoming plans, the stored lists, where the couple stands with the shown ones, the global and the local posts",
    async () => {
      // Around Porto: the couples of this file near Lisbon are the near card's test's five nearest.
      const us = await forumCouple({ place: PORTO });
      await forumCouple({ place: MATOSINHOS });
      const db = await getDb();
      // The first read stores the lists; the next reads them.
      await loadDashboard(db, us.a.userId);
      const { logging, logged } = recordingStatements(db);
      const dashboard = await loadDashboard(logging, us.a.userId);
      expect(dashboard.localPosts).not.toBeNull();
      expect(logged).toHaveLength(5);
      // The local list is centred on the place the stored lists' read found: the couple's place is not read again.
      expect(logged.filter(({ query }) => /from "locations" where/.test(query))).toEqual([]);
    },
  );

  it.skipIf(!onPostgres())(
    "suggestions: reads the first 3 stored ones (unchanged, still seen), not the whole list, and shows the 3 discover ranks first, also when one of them scores less since",
    async () => {
      // Interests no other test of this file gives: these couples are the only suggestions.
      const THEME = ["entrepreneurship", "career_development"];
      const db = await getDb();
      const withInterests = async (a: string[], b: string[]) => {
        const made = await forumCouple();
        await db.update(users).set({ interests: a }).where(eq(users.id, made.a.userId));
        await db.update(users).set({ interests: b }).where(eq(users.id, made.b.userId));
        return made;
      };
      const us = await withInterests(THEME, THEME);
      // One the best (all four share both: 6), the others all four sharing one (4).
      const best = await withInterests(THEME, THEME);
      const others: TestCouple[] = [];
      for (let i = 0; i < 5; i++) others.push(await withInterests(THEME, ["entrepreneurship"]));
      // Changed an hour ago: read from the stored list, not as couples changed since it.
      await db
        .update(couples)
        .set({ matchChangedAt: new Date(Date.now() - 3_600_000) })
        .where(
          inArray(
            couples.id,
            [us, best, ...others].map((c) => c.coupleId),
          ),
        );
      const topThree = async () => (await discoverSuggestions(db, us.a.userId)).slice(0, 3).map((card) => card.coupleId);
      const first = await topThree();
      expect(first[0]).toBe(best.coupleId);
      const { logging, logged } = recordingStatements(db);
      const { suggestions } = await dashboardFinds(logging, us.b.userId, { suggestions: 3, near: 5 });
      expect(suggestions.map((card) => card.coupleId)).toEqual(first);
      // The statement it sent reads the viewer and 3 stored suggestions (no place: no near couples), not all 6.
      const [finds] = logged;
      const client = (db as unknown as { $client: postgres.Sql }).$client;
      const rows = await client.unsafe<{ part: string }[]>(finds!.query, finds!.params as never[]);
      expect(rows.filter((row) => row.part === "stored")).toHaveLength(3);

      // The best one's second partner clears their interests (the couple's together stay the same):
      // no interest is held by all four now (2), the last of all: read as changed, and the 4th stored
      // (the 3rd unchanged) takes a place.
      await db.update(users).set({ interests: [] }).where(eq(users.id, best.b.userId));
      const now = await topThree();
      expect(now).toEqual([...first.slice(1), expect.any(String)]);
      expect(now).not.toContain(best.coupleId);
      expect((await dashboardFinds(db, us.b.userId, { suggestions: 3, near: 5 })).suggestions.map((card) => card.coupleId)).toEqual(now);
    },
  );

  it("shows the bell's newest, the upcoming plans and the posts as their own reads answer them", async () => {
    const { one, two, conversationId } = await connected();
    const db = await getDb();
    await plan.propose(
      conversationId,
      { title: "Dinner and a walk", startsAt: daysAhead(15), placeId: PLACES.lisbon, venue: "Time Out Market" },
      one.a.headers,
    );
    await plan.propose(conversationId, { title: "A second dinner", startsAt: daysAhead(20), placeId: PLACES.lisbon }, two.a.headers);
    const now = new Date();
    const dashboard = await loadDashboard(db, one.a.userId, now);
    expect(dashboard.upcoming.map((item) => item.title)).toEqual(["Dinner and a walk", "A second dinner"]);
    expect(dashboard.upcoming).toEqual(await upcomingPlans(db, actingA(one), now));
    // Partner B was told of the plans: the bell's newest, as the bell's own read lists them.
    const forB = await loadDashboard(db, one.b.userId, now);
    expect(forB.notifications.length).toBeGreaterThan(0);
    expect(forB.notifications).toEqual((await latestNotifications(db, one.b.userId, 5)).map(notificationView));
    const posts = (scope: "global" | "local") => listPostsQuerySchema.parse({ scope, limit: "3" });
    expect(dashboard.globalPosts).toEqual((await listPosts(db, { userId: one.a.userId }, posts("global"))).data);
    // Once the other couple blocks them, neither its plans' conversation nor its notices show.
    await block(one.coupleId, two.a.headers);
    const blocked = await loadDashboard(db, one.b.userId);
    expect(blocked.upcoming).toEqual([]);
    expect(blocked.notifications.filter((item) => item.actor_couple_name === two.name)).toEqual([]);
  });

  it("local posts: the same list as the local forum's own read around the couple's place", async () => {
    const us = await forumCouple({ place: PORTO });
    const db = await getDb();
    const query = listPostsQuerySchema.parse({ scope: "local", limit: "3" });
    expect((await loadDashboard(db, us.a.userId)).localPosts).toEqual((await listPosts(db, { userId: us.a.userId }, query)).data);
  });

  it("records each partner's first visit once: null until then, the first time after", async () => {
    const us = await forumCouple();
    const db = await getDb();
    expect((await loadDashboard(db, us.a.userId)).welcomedAt).toBeNull();
    const first = await recordWelcome(db, us.a.userId);
    // A later visit (or a racing tab) leaves the first visit as it was.
    await recordWelcome(db, us.a.userId);
    expect((await loadDashboard(db, us.a.userId)).welcomedAt).toEqual(first);
    // Partner B's first visit is their own.
    expect((await loadDashboard(db, us.b.userId)).welcomedAt).toBeNull();
  });

  it("near couples: visible ones within 200 km as bands, never hidden ones; completion; no invitation card once both joined", async () => {
    const us = await forumCouple({ place: LISBON });
    const near = await forumCouple({ place: SINTRA });
    const hidden = await forumCouple({ place: SINTRA, visible: false });
    const far = await forumCouple({ place: PORTO });
    const db = await getDb();
    await db
      .update(users)
      .set({ interests: ["travel"] })
      .where(eq(users.id, us.a.userId));
    const dashboard = await loadDashboard(db, us.a.userId);
    expect(dashboard.coupleName).toBe(us.name);
    expect(dashboard.completion.percentage).toBe(100);
    expect(dashboard.invitation).toBeUndefined();
    const nearIds = dashboard.near!.map((couple) => couple.coupleId);
    expect(nearIds).toContain(near.coupleId);
    expect(nearIds).not.toContain(hidden.coupleId);
    expect(nearIds).not.toContain(us.coupleId);
    expect(dashboard.near!.length).toBeLessThanOrEqual(5);
    const sintra = dashboard.near!.find((couple) => couple.coupleId === near.coupleId)!;
    expect(sintra.distance).toBe("Within 25 km");
    expect(JSON.stringify(dashboard.near)).not.toMatch(/Rua Exacta|latitude|Lovelace/);
    if (nearIds.includes(far.coupleId)) expect(dashboard.near!.find((c) => c.coupleId === far.coupleId)!.distance).toBe("Within 500 km");
    // Without bio, interests or photo: 67 and what to do about it.
    const b = await loadDashboard(db, us.b.userId);
    expect(b.completion.percentage).toBe(67);
    expect(b.completion.missing.map((step) => step.fix.text)).toEqual(["Add a bio, interests or a photo"]);
  });

  it("near couples are measured from the viewer's own place, as the directory and a profile measure them", async () => {
    // Region level shows others a point on the 1° grid (45, 10), about 40 km away; the couple's own
    // distances still start where it really is.
    const here = { lat: 45.3, lng: 10.3, city: "Brescia", country: "Italy" };
    const us = await forumCouple({ place: { ...here, level: "region" } });
    const them = await forumCouple({ place: { ...here, level: "full" } });
    const near = (await loadDashboard(await getDb(), us.a.userId)).near!;
    expect(near.find((couple) => couple.coupleId === them.coupleId)!.distance).toBe("Within 10 km");
    const profile = await loadCoupleProfile(await getDb(), us.a.userId, them.coupleId);
    expect(profile.distanceBand).toBe("Within 10 km");
    // The other way round, their distance to us is measured to the point we show.
    const back = await loadCoupleProfile(await getDb(), them.a.userId, us.coupleId);
    expect(back.distanceBand).toBe("Within 50 km");
    // A hidden place of one's own has no point to measure from: the card asks for one, as the directory does.
    const hidden = await forumCouple({ place: { ...here, level: "hidden" } });
    expect((await loadDashboard(await getDb(), hidden.a.userId)).near).toBeNull();
  });

  it("no place: near couples and local posts say to set one", async () => {
    const us = await forumCouple();
    const dashboard = await loadDashboard(await getDb(), us.a.userId);
    expect(dashboard.near).toBeNull();
    expect(dashboard.localPosts).toBeNull();
    expect(Array.isArray(dashboard.globalPosts)).toBe(true);
  });

  it("partner B not joined: 'Invite Your Partner' without an invitation, then the pending one, resend and cancel", async () => {
    const inviter = await partnerA();
    const db = await getDb();
    expect((await loadDashboard(db, inviter.user.id)).invitation).toBeNull();
    const { email } = await invited(inviter);
    const pending = (await loadDashboard(db, inviter.user.id)).invitation!;
    expect(pending).toMatchObject({ partnerFirstName: "Thaddeus", partnerEmail: email, expired: false });
    expect(Date.parse(pending.expiresAt)).toBeGreaterThan(Date.now() + 6.9 * 86_400_000);

    // Past SENT_AGAIN_SECONDS, so 'Resend' sends a new invitation rather than answering this one.
    await sentEarlier(inviter.coupleId);
    const resent = await resendInvitation(db, inviter.user.id);
    expect(resent.invitation.partner_email).toBe(email);
    const open = await db
      .select()
      .from(invitations)
      .where(and(eq(invitations.coupleId, inviter.coupleId), isNull(invitations.revokedAt)));
    expect(open).toHaveLength(1);
    expect((await loadDashboard(db, inviter.user.id)).invitation!.id).not.toBe(pending.id);

    await cancelInvitation(db, inviter.user.id);
    expect((await loadDashboard(db, inviter.user.id)).invitation).toBeNull();
    await expect(cancelInvitation(db, inviter.user.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(resendInvitation(db, inviter.user.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("notifications: the newest five, newest first, never one from a couple blocked either way", async () => {
    const us = await forumCouple();
    const friend = await forumCouple();
    const blocked = await forumCouple();
    const db = await getDb();
    const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 12, minutes));
    const note = (title: string, minutes: number, actor = friend) => ({
      userId: us.a.userId,
      type: "reply" as const,
      title,
      message: title,
      actorUserId: actor.a.userId,
      actorCoupleId: actor.coupleId,
      createdAt: at(minutes),
    });
    await db
      .insert(notifications)
      .values([...Array.from({ length: 6 }, (_, i) => note(`reply ${i}`, i)), note("from the blocked couple", 30, blocked)]);
    await db.insert(coupleBlocks).values({ blockerCoupleId: blocked.coupleId, blockedCoupleId: us.coupleId });
    const shown = (await loadDashboard(db, us.a.userId)).notifications;
    expect(shown.map((item) => item.title)).toEqual(["reply 5", "reply 4", "reply 3", "reply 2", "reply 1"]);
    expect(shown[0]).toMatchObject({ actor_couple_name: friend.name, is_read: false });
    // The card's client component gets them as its props: the API's aliases are not sent twice.
    expect(Object.keys(shown[0]!)).not.toContain("content_snippet");
    expect(Object.keys(shown[0]!)).not.toContain("triggered_by_couple_name");
    // The partner has none of their own.
    expect((await loadDashboard(db, us.b.userId)).notifications).toEqual([]);
  });

  it("near couples come from the couple's stored list: hidden, blocked, placeless or dismissed ones drop out at once (the list walked again), newcomers come in at once", async () => {
    const here = { lat: 44.49, lng: 11.34, city: "Bologna", country: "Italy" };
    const nearby = { lat: 44.5, lng: 11.4, city: "Bologna", country: "Italy" };
    const us = await forumCouple({ place: here });
    const [hidden, blocked, placeless, dismissed, stays] = (await Promise.all(
      [1, 2, 3, 4, 5].map(() => forumCouple({ place: nearby })),
    )) as [TestCouple, TestCouple, TestCouple, TestCouple, TestCouple];
    const db = await getDb();
    const nearIds = async () => (await loadDashboard(db, us.a.userId)).near!.map((couple) => couple.coupleId);
    const first = await nearIds();
    for (const other of [hidden, blocked, placeless, dismissed, stays]) expect(first).toContain(other.coupleId);

    await db.update(couples).set({ isVisible: false }).where(eq(couples.id, hidden.coupleId));
    await db.insert(coupleBlocks).values({ blockerCoupleId: blocked.coupleId, blockedCoupleId: us.coupleId });
    await db.update(locations).set({ privacyLevel: "country" }).where(eq(locations.entityId, placeless.coupleId));
    await dismissSuggestion(db, (await userAccount(db, us.b.userId))!.couple!, dismissed.coupleId);
    const newcomer = await forumCouple({ place: nearby });
    const second = await nearIds();
    expect(second).toContain(stays.coupleId);
    expect(second).toContain(newcomer.coupleId);
    for (const gone of [hidden, blocked, placeless, dismissed]) expect(second).not.toContain(gone.coupleId);
    // Couples of the stored suggestions left, so the lists were walked again at once, without them.
    const [stored] = await db.select().from(discoverSummaries).where(eq(discoverSummaries.coupleId, us.coupleId));
    expect(stored!.nearIds).toContain(newcomer.coupleId);
    // (A dismissed couple stays near in the directory's walk: the read leaves it out, as above.)
    for (const gone of [hidden, blocked, placeless]) expect(stored!.nearIds).not.toContain(gone.coupleId);

    // A newcomer comes in at once without a walk; a day later the list is walked again...
    const later = await forumCouple({ place: nearby });
    expect(await nearIds()).toContain(later.coupleId);
    const [kept] = await db.select().from(discoverSummaries).where(eq(discoverSummaries.coupleId, us.coupleId));
    expect(kept!.nearIds).not.toContain(later.coupleId);
    await db
      .update(discoverSummaries)
      .set({ computedAt: new Date(Date.now() - SUMMARY_TTL_MS - 1000) })
      .where(eq(discoverSummaries.coupleId, us.coupleId));
    expect(await nearIds()).toContain(later.coupleId);
    const [walked] = await db.select().from(discoverSummaries).where(eq(discoverSummaries.coupleId, us.coupleId));
    expect(walked!.nearIds).toContain(later.coupleId);
    // ...and at once when the viewer's own place changes.
    await db.update(locations).set({ latitude: 44.48 }).where(eq(locations.entityId, us.coupleId));
    const [moved] = await db.select().from(discoverSummaries).where(eq(discoverSummaries.coupleId, us.coupleId));
    await nearIds();
    const [after] = await db.select().from(discoverSummaries).where(eq(discoverSummaries.coupleId, us.coupleId));
    expect(after!.computedAt.getTime()).toBeGreaterThan(moved!.computedAt.getTime());
  });
});
