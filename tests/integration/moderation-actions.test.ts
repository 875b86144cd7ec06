import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as registerRoute } from "@/app/api/auth/register/route";
import { POST as unsubscribeRoute } from "@/app/api/notifications/unsubscribe/route";
import { POST as forumPhotosRoute } from "@/app/api/forum/photos/route";
import { POST as messagePhotosRoute } from "@/app/api/messages/photos/route";
import { GET as getPrefs, PUT as putPrefs } from "@/app/api/settings/notifications/route";
import { getDb, openDatabase } from "@/db/client";
import {
  bannedEmails,
  couples,
  coupleSanctions,
  emailOutbox,
  forumPosts,
  moderationLog,
  notifications,
  sessions,
  users,
} from "@/db/schema";
import { deleteAccount } from "@/lib/account/deletion";
import { exportAccount } from "@/lib/account/export";
import { authenticate } from "@/lib/auth/credentials";
import { SAFETY_REACTIONS } from "@/lib/registry/safety";
import { COUPLE_NOT_REMOVED } from "@/lib/safety/rules";
import { liveSessionAccount } from "@/lib/auth/users";
import { OWN_COUPLE_MESSAGE } from "@/lib/safety/moderators";
import { issueUnsubscribeToken } from "@/lib/notifications/preferences";
import { currentRestriction, unseenWarning } from "@/lib/safety/notices";
import { markWarningSeen, sanctionCouple } from "@/lib/safety/sanctions";
import { call, freshAddress, PASSWORD } from "../support/api";
import { forum, postBody, type TestCouple } from "../support/forum";
import { connected, connections, messagingCouple, talk } from "../support/messages";
import { appeals, moderation, moderatorCouple, profileOf, sanctions } from "../support/moderation";
import { formOf, jpeg, post as postForm, storedFiles } from "../support/onboarding";

const DAY = 24 * 60 * 60 * 1000;

async function emailOf(userId: string): Promise<string> {
  const db = await getDb();
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row!.email;
}

async function emailsOf(couple: TestCouple): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .select({ email: users.email })
    .from(users)
    .where(inArray(users.id, [couple.a.userId, couple.b.userId]));
  return rows.map((row) => row.email);
}

/** Registers an address anew (after its account was deleted). */
const registerAgain = (email: string) =>
  call(registerRoute, "POST", "/api/auth/register", {
    body: {
      email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      firstName: "Eve",
      lastName: "Again",
      dateOfBirth: "1990-01-01",
      acceptTerms: true,
    },
  });

const signIn = async (email: string) =>
  authenticate(await getDb(), { email, password: PASSWORD }, { clientAddress: freshAddress() }).then(
    () => "signed in",
    (error: { code?: string; message?: string }) => `${error.code}: ${error.message}`,
  );

async function noticesOf(userId: string) {
  const db = await getDb();
  return db
    .select({ title: notifications.title, message: notifications.message })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.type, "moderation")));
}

describe("acting on a couple: who may, and what is checked", () => {
  it("is for moderators only (403), never on their own couple, with a guideline and the days of a restriction", async () => {
    const target = await messagingCouple();
    const member = await messagingCouple();
    const { couple: own, headers } = await moderatorCouple();
    expect((await sanctions.act(target.coupleId, { kind: "warn", reason: "spam" }, member.a.headers)).status).toBe(403);
    const self = await sanctions.act(own.coupleId, { kind: "warn", reason: "spam" }, headers);
    expect(self.status).toBe(403);
    expect(self.json.error.message).toMatch(/own couple/);
    expect((await sanctions.act(target.coupleId, { kind: "restrict", reason: "spam" }, headers)).status).toBe(400);
    expect((await sanctions.act(target.coupleId, { kind: "restrict", reason: "spam", days: 3 }, headers)).status).toBe(400);
    expect((await sanctions.act(target.coupleId, { kind: "warn", reason: "rudeness" }, headers)).status).toBe(400);
    expect((await sanctions.act(target.coupleId, { kind: "erase", reason: "spam" }, headers)).status).toBe(400);
    expect((await sanctions.act(target.coupleId, { kind: "warn", reason: "spam", note: "x".repeat(1001) }, headers)).status).toBe(400);
    expect((await sanctions.act("00000000-0000-4000-8000-000000000000", { kind: "warn", reason: "spam" }, headers)).status).toBe(404);
    expect((await sanctions.act(target.coupleId, { kind: "warn", reason: "spam" }, { cookie: headers.cookie! })).status).toBe(403);
  });
});

describe("a length sent with an action that has none", () => {
  it("is no part of it: a suspension left from the form's restriction (days 7) stands with no end, and the log says no days", async () => {
    const target = await messagingCouple();
    const { headers } = await moderatorCouple();
    const done = await sanctions.act(target.coupleId, { kind: "suspend", reason: "hate", days: 7, note: "Threats" }, headers);
    expect(done.status).toBe(201);
    const db = await getDb();
    const [sanction] = await db
      .select({ endsAt: coupleSanctions.endsAt })
      .from(coupleSanctions)
      .where(eq(coupleSanctions.id, done.json.data.id));
    expect(sanction!.endsAt).toBeNull();
    const logged = await db
      .select({ note: moderationLog.note })
      .from(moderationLog)
      .where(and(eq(moderationLog.coupleId, target.coupleId), eq(moderationLog.action, "suspend")));
    expect(logged).toEqual([{ note: "Threats" }]);
  });
});

describe("a couple the moderator's own couple reported", () => {
  it("is not theirs to act on, from the report or not (403, as deciding the report); another moderator acts", async () => {
    const target = await messagingCouple();
    const { couple: own, headers } = await moderatorCouple();
    const { headers: other } = await moderatorCouple();
    // The moderator's partner reports the couple's post.
    const post = (await forum.create(postBody(), target.a.headers)).json.data;
    const filed = (await moderation.report({ targetType: "post", targetId: post.id, reason: "spam" }, own.b.headers)).json.data;
    for (const input of [{ reportId: filed.id }, {}]) {
      const refused = await sanctions.act(target.coupleId, { kind: "ban", reason: "spam", ...input }, headers);
      expect(refused.status).toBe(403);
      expect(refused.json.error.message).toBe(OWN_COUPLE_MESSAGE);
    }
    const db = await getDb();
    const [couple] = await db.select({ status: couples.status }).from(couples).where(eq(couples.id, target.coupleId));
    expect(couple!.status).toBe("active");
    expect((await sanctions.act(target.coupleId, { kind: "warn", reason: "spam" }, other)).status).toBe(201);
  });

  it("is not theirs to lift an action on, nor to decide its appeal (403, the same words); another moderator does", async () => {
    const target = await messagingCouple();
    const { couple: own, headers } = await moderatorCouple();
    const { headers: actor } = await moderatorCouple();
    const { headers: other } = await moderatorCouple();
    const sanctionId = (await sanctions.act(target.coupleId, { kind: "restrict", reason: "spam", days: 7 }, actor)).json.data.id;
    const appeal = (await appeals.file({ sanctionId, body: "Not us" }, target.a.headers)).json.data;
    // The moderator's partner reports the couple itself.
    expect((await moderation.report({ targetType: "couple", targetId: target.coupleId, reason: "spam" }, own.b.headers)).status).toBe(201);
    for (const refused of [
      await sanctions.lift(sanctionId, { reason: "Reviewed" }, headers),
      await appeals.decide(appeal.id, "grant", headers),
      await appeals.decide(appeal.id, "refuse", headers),
    ]) {
      expect(refused.status).toBe(403);
      expect(refused.json.error.message).toBe(OWN_COUPLE_MESSAGE);
    }
    expect((await appeals.decide(appeal.id, "grant", other)).status).toBe(200);
  });
});

describe("acting from a report another moderator decided", () => {
  it("is refused as deciding it again is (404, reviewed): the couple is not acted on, nor told", async () => {
    const target = await messagingCouple();
    const reporter = await messagingCouple();
    const { headers: one } = await moderatorCouple();
    const { headers: two } = await moderatorCouple();
    const report = (await moderation.report({ targetType: "couple", targetId: target.coupleId, reason: "harassment" }, reporter.a.headers))
      .json.data;
    expect((await moderation.resolve(report.id, "dismiss", one)).status).toBe(200);

    const refused = await sanctions.act(target.coupleId, { kind: "suspend", reason: "harassment", reportId: report.id }, two);
    expect(refused.status).toBe(404);
    expect(refused.json.error.message).toBe("This report does not exist or was already reviewed.");
    const db = await getDb();
    const [couple] = await db.select({ status: couples.status }).from(couples).where(eq(couples.id, target.coupleId));
    expect(couple!.status).toBe("active");
    expect(await noticesOf(target.a.userId)).toEqual([]);
  });

  it("sent again from a post's report, which stays open for its own decision: the action taken is answered, not a second", async () => {
    const target = await messagingCouple();
    const reporter = await messagingCouple();
    const { headers } = await moderatorCouple();
    const post = (await forum.create(postBody(), target.a.headers)).json.data as { id: string };
    const report = (await moderation.report({ targetType: "post", targetId: post.id, reason: "spam" }, reporter.a.headers)).json.data;
    const body = { kind: "restrict", reason: "spam", days: 7, reportId: report.id };
    const first = await sanctions.act(target.coupleId, body, headers);
    const again = await sanctions.act(target.coupleId, body, headers);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.json.data.id, "the retry answers the action taken").toBe(first.json.data.id);
    const db = await getDb();
    const logged = await db
      .select({ id: moderationLog.id })
      .from(moderationLog)
      .where(and(eq(moderationLog.coupleId, target.coupleId), eq(moderationLog.action, "restrict")));
    expect(logged, "taken and logged once").toHaveLength(1);
    expect(await noticesOf(target.a.userId), "told once").toHaveLength(1);
  });
});

describe("an action sent again", () => {
  it("with the form's empty note (none written) is the action taken, not a second; the note is none, not empty words", async () => {
    const target = await messagingCouple();
    const { headers } = await moderatorCouple();
    const body = { kind: "suspend", reason: "harassment", note: "  " };
    const first = await sanctions.act(target.coupleId, body, headers);
    const again = await sanctions.act(target.coupleId, body, headers);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.json.data.id, "the retry answers the action taken").toBe(first.json.data.id);
    const db = await getDb();
    const taken = await db
      .select({ note: coupleSanctions.note })
      .from(coupleSanctions)
      .where(eq(coupleSanctions.coupleId, target.coupleId));
    expect(taken).toEqual([{ note: null }]);
    expect(await noticesOf(target.a.userId), "told once").toHaveLength(1);
  });
});

describe("warn", () => {
  it("tells both partners once (in the app and by e-mail), naming the guideline; the warning is shown once", async () => {
    const target = await messagingCouple();
    const { headers, userId } = await moderatorCouple();
    const done = await sanctions.act(target.coupleId, { kind: "warn", reason: "harassment", note: "Wrote again after a no" }, headers);
    expect(done.status).toBe(201);
    for (const partner of [target.a, target.b])
      expect(await noticesOf(partner.userId)).toEqual([
        { title: "A warning from our moderators", message: expect.stringContaining("'Harassment'") },
      ]);
    const db = await getDb();
    const warning = await unseenWarning(db, target.coupleId);
    expect(warning).toMatchObject({ id: done.json.data.id, kind: "warn", reason: "harassment" });
    await markWarningSeen(db, target.coupleId, warning!.id);
    expect(await unseenWarning(db, target.coupleId)).toBeNull();
    // Writing still works after a warning.
    expect((await forum.create(postBody(), target.a.headers)).status).toBe(201);
    const log = await moderation.log(`?couple=${target.coupleId}`, headers);
    expect(log.json.data[0]).toMatchObject({ action: "warn", moderator: { userId }, reason: "harassment", note: "Wrote again after a no" });
  });
});

/** What a person's signed-in pages show above everything: the notices their page session read finds. */
async function pageNotices(userId: string) {
  const db = await getDb();
  const [session] = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId)).limit(1);
  return (await liveSessionAccount(db, session!.id, userId))!.notices;
}

describe("what the couple's pages show above everything", () => {
  it("the oldest unseen warning and the longest restriction in force, read with the session as each alone", async () => {
    const target = await messagingCouple();
    const { headers } = await moderatorCouple();
    const db = await getDb();
    expect(await pageNotices(target.b.userId)).toEqual({ warning: null, restriction: null });
    const act = async (input: Record<string, unknown>) => (await sanctions.act(target.coupleId, input, headers)).json.data.id as string;
    const firstWarning = await act({ kind: "warn", reason: "spam" });
    // A second decision, not the first sent again (that is the one taken: moderation-concurrency).
    const secondWarning = await act({ kind: "warn", reason: "spam", note: "Still the same links" });
    await act({ kind: "restrict", reason: "spam", days: 1 });
    const longest = await act({ kind: "restrict", reason: "spam", days: 30 });
    await act({ kind: "restrict", reason: "spam", days: 7 });

    const shown = await pageNotices(target.a.userId);
    expect(shown.warning).toMatchObject({ id: firstWarning, kind: "warn", reason: "spam", endsAt: null });
    expect(shown.restriction).toMatchObject({ id: longest, kind: "restrict" });
    expect(shown).toEqual({
      warning: await unseenWarning(db, target.coupleId),
      restriction: await currentRestriction(db, target.coupleId),
    });

    await markWarningSeen(db, target.coupleId, firstWarning);
    expect((await pageNotices(target.a.userId)).warning?.id).toBe(secondWarning);
    await markWarningSeen(db, target.coupleId, secondWarning);
    expect((await pageNotices(target.a.userId)).warning).toBeNull();
    // Both partners see them; another couple's notices are not theirs.
    expect((await pageNotices(target.b.userId)).restriction?.id).toBe(longest);
    expect(await pageNotices((await messagingCouple()).a.userId)).toEqual({ warning: null, restriction: null });
  });
});

describe("restrict", () => {
  it("refuses hello, messages, posts and replies (and editing them) with why and until when; reading works; lifting restores", async () => {
    const { one: restricted, two: other, conversationId } = await connected();
    const stranger = await messagingCouple();
    const { headers } = await moderatorCouple();
    const post = (await forum.create(postBody(), other.a.headers)).json.data;
    // What the couple wrote before: it cannot rewrite it while restricted.
    const ownPost = (await forum.create(postBody(), restricted.a.headers)).json.data;
    const ownReply = (await forum.reply(post.id, { body: "Before" }, restricted.b.headers)).json.data;
    const ownMessage = (await talk.send(conversationId, { body: "Before" }, restricted.a.headers)).json.data;
    const done = await sanctions.act(restricted.coupleId, { kind: "restrict", reason: "spam", days: 7 }, headers);
    expect(done.status).toBe(201);

    const refusals = [
      await connections.send({ coupleId: stranger.coupleId, note: "Hi there" }, restricted.a.headers),
      await talk.send(conversationId, { body: "Hello?" }, restricted.b.headers),
      await forum.create(postBody(), restricted.a.headers),
      await forum.reply(post.id, { body: "A reply" }, restricted.b.headers),
      await forum.patch(ownPost.id, { body: "Buy now at spam.example" }, restricted.a.headers),
      await forum.patchReply(ownReply.id, { body: "Buy now" }, restricted.b.headers),
      await talk.edit(ownMessage.id, { body: "Buy now" }, restricted.a.headers),
    ];
    for (const refused of refusals) {
      expect(refused.status).toBe(403);
      expect(refused.json.error.code).toBe("ACCOUNT_RESTRICTED");
      expect(refused.json.error.message).toMatch(/^Your couple is restricted until .+ \(Spam and scams\): you can read, but not say hello/);
    }
    const until = new Date(refusals[0]!.json.restriction.endsAt).getTime();
    expect(Math.abs(until - (Date.now() + 7 * DAY))).toBeLessThan(60_000);
    // Reading still works, and the other couple still writes.
    expect((await talk.thread(conversationId, restricted.a.headers)).status).toBe(200);
    expect((await forum.thread(post.id, restricted.a.headers)).status).toBe(200);
    expect((await talk.send(conversationId, { body: "Still here" }, other.a.headers)).status).toBe(201);

    expect((await sanctions.lift(done.json.data.id, { reason: "" }, headers)).status).toBe(400);
    expect((await sanctions.lift(done.json.data.id, { reason: "Reviewed: a misunderstanding" }, headers)).status).toBe(200);
    expect((await sanctions.lift(done.json.data.id, { reason: "Again" }, headers)).status).toBe(404);
    expect((await talk.send(conversationId, { body: "Back" }, restricted.b.headers)).status).toBe(201);
    const titles = (await noticesOf(restricted.a.userId)).map((n) => n.title).sort();
    expect(titles).toEqual(["Your couple is no longer restricted", "Your couple is restricted"]);
  });

  it("refuses the photos a post or a message would show: nothing is processed or stored, and no URL is handed out", async () => {
    const restricted = await messagingCouple();
    const { headers } = await moderatorCouple();
    expect((await sanctions.act(restricted.coupleId, { kind: "restrict", reason: "sexual_content", days: 7 }, headers)).status).toBe(201);
    const before = await storedFiles();
    for (const [route, path] of [
      [forumPhotosRoute, "/api/forum/photos"],
      [messagePhotosRoute, "/api/messages/photos"],
    ] as const) {
      const refused = await postForm(route, path, formOf({ photo: await jpeg() }), restricted.a.headers);
      expect(refused.status).toBe(403);
      expect(refused.json.error.code).toBe("ACCOUNT_RESTRICTED");
      expect(refused.json.data).toBeUndefined();
    }
    expect(await storedFiles()).toEqual(before);
  });

  it("ends by itself when its days are over", async () => {
    const target = await messagingCouple();
    const { headers } = await moderatorCouple();
    const done = await sanctions.act(target.coupleId, { kind: "restrict", reason: "spam", days: 1 }, headers);
    const db = await getDb();
    const { coupleSanctions } = await import("@/db/schema");
    await db
      .update(coupleSanctions)
      .set({ endsAt: new Date(Date.now() - 1000) })
      .where(eq(coupleSanctions.id, done.json.data.id));
    expect((await forum.create(postBody(), target.a.headers)).status).toBe(201);
  });
});

describe("suspend", () => {
  it("signs both partners out everywhere, refuses sign-in, hides the couple and ends its conversations; lift restores", async () => {
    const { one: suspended, two: other, conversationId } = await connected();
    const { headers } = await moderatorCouple();
    const emails = await emailsOf(suspended);
    expect((await profileOf(suspended.coupleId, other.a.headers)).status).toBe(200);

    // Made through a second database client (another instance): in force at this one's next request.
    // The embedded database (no DATABASE_URL) has one client per process: there it is this one.
    const instance = process.env.DATABASE_URL ? await openDatabase(process.env.DATABASE_URL) : null;
    let sanctionId: string;
    try {
      const db = instance?.db ?? (await getDb());
      const { couple, userId } = await moderatorCouple();
      const moderator = { userId, coupleId: couple.coupleId };
      sanctionId = (await sanctionCouple(db, moderator, suspended.coupleId, { kind: "suspend", reason: "hate" }, SAFETY_REACTIONS)).id;
    } finally {
      await instance?.close();
    }
    for (const partner of [suspended.a, suspended.b]) {
      expect((await talk.inbox(partner.headers)).status).toBe(401);
      expect((await forum.create(postBody(), partner.headers)).status).toBe(401);
    }
    for (const email of emails) expect(await signIn(email)).toMatch(/^ACCOUNT_SUSPENDED: Your couple's account is suspended/);
    expect((await profileOf(suspended.coupleId, other.a.headers)).status).toBe(404);
    const detail = await talk.detail(conversationId, other.b.headers);
    expect(detail.json.data.ended).toBe(true);
    expect((await talk.send(conversationId, { body: "Hello?" }, other.a.headers)).status).toBe(403);
    expect((await noticesOf(suspended.b.userId)).map((n) => n.title)).toEqual(["Your couple is suspended"]);

    expect((await sanctions.lift(sanctionId, { reason: "Appeal heard" }, headers)).status).toBe(200);
    for (const email of emails) expect(await signIn(email)).toBe("signed in");
    expect((await profileOf(suspended.coupleId, other.a.headers)).status).toBe(200);
    const db = await getDb();
    const actions = await db
      .select({ action: moderationLog.action })
      .from(moderationLog)
      .where(eq(moderationLog.coupleId, suspended.coupleId));
    expect(actions.map((row) => row.action)).toEqual(["suspend", "lift"]);
  });
});

describe("the couple's e-mail about a decision", () => {
  it("goes whatever the partners chose for e-mail, with nothing to unsubscribe from: a suspended couple cannot sign in to read it", async () => {
    const target = await messagingCouple();
    const { headers } = await moderatorCouple();
    const db = await getDb();
    const [emailA, emailB] = [await emailOf(target.a.userId), await emailOf(target.b.userId)];
    // Partner A turned these e-mails off in the settings; partner B holds an unsubscribe link from an earlier e-mail.
    const saved = await call(putPrefs, "PUT", "/api/settings/notifications", {
      body: { preferences: { moderation: { inApp: true, email: false } } },
      headers: target.a.headers,
    });
    expect(saved.json.data.moderation).toEqual({ inApp: true, email: true, push: false });
    const oldLink = await issueUnsubscribeToken(db, target.b.userId, "moderation");
    const unsubscribed = await call(unsubscribeRoute, "POST", `/api/notifications/unsubscribe?token=${encodeURIComponent(oldLink)}`, {
      rawBody: "List-Unsubscribe=One-Click",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(unsubscribed.status).toBe(400);
    expect(unsubscribed.json.error.message).toBe(
      "E-mails about 'Moderators' decisions' concern your own account, so they are always sent and cannot be turned off.",
    );
    const prefsB = await call(getPrefs, "GET", "/api/settings/notifications", { headers: { cookie: target.b.headers.cookie! } });
    expect(prefsB.json.data.moderation.email).toBe(true);

    expect((await sanctions.act(target.coupleId, { kind: "suspend", reason: "hate" }, headers)).status).toBe(201);
    for (const email of [emailA, emailB]) {
      const mails = await db
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.to, email), eq(emailOutbox.subject, "Your couple is suspended")));
      expect(mails).toHaveLength(1);
      expect(mails[0]!.text).toContain("/safety");
      expect(mails[0]!.text).not.toContain("/unsubscribe");
      expect(mails[0]!.headers ?? {}).not.toHaveProperty("List-Unsubscribe");
    }
  });
});

describe("ban", () => {
  it("is a suspension for good whose e-mail addresses cannot register again, kept as a keyed hash and after deletion", async () => {
    const banned = await messagingCouple();
    const { headers } = await moderatorCouple();
    const emails = await emailsOf(banned);
    expect((await sanctions.act(banned.coupleId, { kind: "ban", reason: "spam", note: "Scam links" }, headers)).status).toBe(201);
    for (const email of emails) expect(await signIn(email)).toMatch(/^ACCOUNT_SUSPENDED: Your couple's account was closed/);
    const db = await getDb();
    const [{ status } = { status: "" }] = await db.select({ status: couples.status }).from(couples).where(eq(couples.id, banned.coupleId));
    expect(status).toBe("suspended");
    const kept = await db.select({ hash: bannedEmails.emailHash }).from(bannedEmails);
    for (const email of emails) expect(kept.map((row) => row.hash).join(" ")).not.toContain(email);

    await deleteAccount(db, banned.a.userId, PASSWORD);
    await deleteAccount(db, banned.b.userId, PASSWORD);
    const refused = await registerAgain(emails[0]!.toUpperCase());
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toBe("This e-mail address cannot be used to register.");
    expect((await registerAgain(`fresh-${Date.now()}@example.com`)).status).toBe(201);
  });
});

describe("a ban of a couple whose partner 2 never proved the address", () => {
  it("keeps that address free: the link's holder typed it, and it may be a stranger's", async () => {
    const banned = await messagingCouple();
    const { headers } = await moderatorCouple();
    const [emailA, emailB] = [await emailOf(banned.a.userId), await emailOf(banned.b.userId)];
    const db = await getDb();
    // As the invitation's shareable link leaves partner B (lib/membership/partner.ts unprovenPartner).
    await db.update(users).set({ registrationType: "partner_invitation", emailVerifiedAt: null }).where(eq(users.id, banned.b.userId));
    expect((await sanctions.act(banned.coupleId, { kind: "ban", reason: "spam" }, headers)).status).toBe(201);
    // Partner A's deletion takes the account nobody proved with it (lib/account/deletion.ts).
    await deleteAccount(db, banned.a.userId, PASSWORD);
    expect(await db.select({ id: users.id }).from(users).where(eq(users.id, banned.b.userId))).toEqual([]);
    expect((await registerAgain(emailA!)).status).toBe(403);
    expect((await registerAgain(emailB!)).status).toBe(201);
  });
});

describe("lifting a ban", () => {
  it("frees its addresses, but those another standing ban holds: a deleted partner registers again once no ban stands", async () => {
    const banned = await messagingCouple();
    const { headers } = await moderatorCouple();
    const [emailA, emailB] = [await emailOf(banned.a.userId), await emailOf(banned.b.userId)];
    const first = await sanctions.act(banned.coupleId, { kind: "ban", reason: "spam" }, headers);
    const second = await sanctions.act(banned.coupleId, { kind: "ban", reason: "hate" }, headers);
    expect([first.status, second.status]).toEqual([201, 201]);
    const db = await getDb();
    await deleteAccount(db, banned.a.userId, PASSWORD);
    expect((await registerAgain(emailA)).status).toBe(403);

    expect((await sanctions.lift(first.json.data.id, { reason: "Appeal heard" }, headers)).status).toBe(200);
    // The second ban still holds both addresses.
    expect((await registerAgain(emailA)).status).toBe(403);
    expect((await sanctions.lift(second.json.data.id, { reason: "Appeal heard" }, headers)).status).toBe(200);
    expect((await registerAgain(emailA)).status).toBe(201);
    await deleteAccount(db, banned.b.userId, PASSWORD);
    expect((await registerAgain(emailB)).status).toBe(201);
  });
});

describe("the couple's data export", () => {
  it("lists the actions taken on the couple, by 'a moderator', never which one", async () => {
    const couple = await messagingCouple();
    const { headers, userId } = await moderatorCouple();
    await sanctions.act(couple.coupleId, { kind: "warn", reason: "spam", note: "Private note" }, headers);
    const exported = await exportAccount(await getDb(), couple.b.userId);
    expect(exported.moderationActions).toMatchObject([
      { by: "a moderator", kind: "warn", reason: "spam", liftedAt: null, appealedAt: null },
    ]);
    expect(JSON.stringify(exported.moderationActions)).not.toContain(userId);
    expect(JSON.stringify(exported.moderationActions)).not.toContain("Private note");
  });

  it("holds the person's own appeal words; a partner's appeal stays the partner's", async () => {
    const couple = await messagingCouple();
    const { headers } = await moderatorCouple();
    const warned = (await sanctions.act(couple.coupleId, { kind: "warn", reason: "spam" }, headers)).json.data.id;
    expect((await appeals.file({ sanctionId: warned, body: "Please reconsider" }, couple.a.headers)).status).toBe(201);
    const db = await getDb();
    expect((await exportAccount(db, couple.a.userId)).moderationActions).toMatchObject([{ yourAppeal: "Please reconsider" }]);
    const partners = await exportAccount(db, couple.b.userId);
    expect(partners.moderationActions).toMatchObject([{ yourAppeal: null }]);
    expect(partners.moderationActions[0]!.appealedAt).not.toBeNull();
  });
});

describe("a reported couple is acted on, never 'removed'", () => {
  it("refuses remove on a couple's report (400, nothing hidden, the report still open); suspending from the report closes it", async () => {
    const target = await messagingCouple();
    const reporter = await messagingCouple();
    const { headers } = await moderatorCouple();
    const filed = await moderation.report({ targetType: "couple", targetId: target.coupleId, reason: "spam" }, reporter.a.headers);
    const removed = await moderation.resolve(filed.json.data.id, "remove", headers);
    expect(removed.status).toBe(400);
    expect(removed.json.error).toMatchObject({ code: "VALIDATION_ERROR", message: COUPLE_NOT_REMOVED });
    const db = await getDb();
    const [couple] = await db.select({ status: couples.status }).from(couples).where(eq(couples.id, target.coupleId));
    expect(couple!.status).toBe("active");
    expect((await moderation.queue(headers)).json.data.map((report: { id: string }) => report.id)).toContain(filed.json.data.id);

    // A report closes only with an action on the couple it is about.
    const bystander = await messagingCouple();
    const elsewhere = await sanctions.act(bystander.coupleId, { kind: "warn", reason: "spam", reportId: filed.json.data.id }, headers);
    expect(elsewhere.status).toBe(404);
    expect((await moderation.queue(headers)).json.data.map((report: { id: string }) => report.id)).toContain(filed.json.data.id);

    const suspended = await sanctions.act(target.coupleId, { kind: "suspend", reason: "spam", reportId: filed.json.data.id }, headers);
    expect(suspended.status).toBe(201);
    expect((await moderation.queue(headers)).json.data.map((report: { id: string }) => report.id)).not.toContain(filed.json.data.id);
    // The reporter's export says the report is closed, not what was done about the other couple.
    expect((await exportAccount(db, reporter.a.userId)).reports).toMatchObject([{ targetId: target.coupleId, status: "closed" }]);
    // Dismissing a couple's report still works.
    const third = await messagingCouple();
    const again = await moderation.report({ targetType: "couple", targetId: third.coupleId, reason: "other" }, reporter.b.headers);
    expect((await moderation.resolve(again.json.data.id, "dismiss", headers)).status).toBe(200);
  });
});

describe("acting on a couple from a report of its words", () => {
  it("leaves the words' reports open, hidden until a moderator decides them; 'remove' then removes them", async () => {
    const author = await messagingCouple();
    const { headers } = await moderatorCouple();
    const post = (await forum.create(postBody(), author.a.headers)).json.data;
    const filed: string[] = [];
    for (let i = 0; i < 3; i++) {
      const reporter = await messagingCouple();
      filed.push((await moderation.report({ targetType: "post", targetId: post.id, reason: "spam" }, reporter.a.headers)).json.data.id);
    }
    const db = await getDb();
    const postState = async () =>
      (
        await db
          .select({ hiddenAt: forumPosts.hiddenAt, removedAt: forumPosts.removedAt })
          .from(forumPosts)
          .where(eq(forumPosts.id, post.id))
      )[0]!;
    expect((await postState()).hiddenAt).not.toBeNull();

    const acted = await sanctions.act(author.coupleId, { kind: "warn", reason: "spam", reportId: filed[0] }, headers);
    expect(acted.status).toBe(201);
    // Still hidden, and still in the queue: nothing says 'removed' while the post is only hidden.
    expect(await postState()).toMatchObject({ hiddenAt: expect.any(Date), removedAt: null });
    const queued = (await moderation.queue(headers)).json.data.filter((report: { targetId: string }) => report.targetId === post.id);
    expect(queued).toMatchObject([{ id: filed[0], reports: 3 }]);

    expect((await moderation.resolve(filed[0]!, "remove", headers)).status).toBe(200);
    expect(await postState()).toMatchObject({ hiddenAt: null, removedAt: expect.any(Date) });
  });
});
