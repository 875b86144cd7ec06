import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as unsubscribeRoute } from "@/app/api/notifications/unsubscribe/route";
import { GET as getPrefs, PUT as putPrefs } from "@/app/api/settings/notifications/route";
import { getDb } from "@/db/client";
import { transaction } from "@/db/transaction";
import { emailOutbox, notificationPreferences, notifications, unsubscribeTokens, users } from "@/db/schema";
import { hashToken } from "@/lib/auth/secrets";
import { issueUnsubscribeTokens, USED_UNSUBSCRIBE_KEPT_SECONDS } from "@/lib/notifications/preferences";
import { createNotifications } from "@/lib/notifications/service";
import { runDueWork } from "@/lib/scheduled/service";
import { LIMITS, TOO_MANY_REQUESTS } from "@/lib/rate-limit";
import { call, FORGED_ADDRESS_HEADERS } from "../support/api";
import { forum, forumCouple, postBody, type Headers } from "../support/forum";
import { nextWhileWaiting } from "../support/lock-race";
import { onPostgres } from "../support/test-database";

const put = (headers: Headers, body: unknown) => call(putPrefs, "PUT", "/api/settings/notifications", { body, headers });
const unsubscribe = (token: string, body = "List-Unsubscribe=One-Click") =>
  call(unsubscribeRoute, "POST", `/api/notifications/unsubscribe?token=${encodeURIComponent(token)}`, {
    rawBody: body,
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });

async function emailOf(userId: string) {
  const db = await getDb();
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row!.email;
}

async function mailsTo(userId: string) {
  const db = await getDb();
  return db
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.to, await emailOf(userId)));
}

async function inApp(userId: string) {
  const db = await getDb();
  return db.select().from(notifications).where(eq(notifications.userId, userId));
}

/** Couple one posts; couple two replies: couple one's author is notified of a reply. */
async function replyScene() {
  const one = await forumCouple();
  const two = await forumCouple();
  const post = await forum.create(postBody(), one.a.headers);
  expect(post.status).toBe(201);
  const reply = () => forum.reply(post.json.data.id, { body: `A reply ${Math.random()}` }, two.a.headers);
  return { one, two, reply };
}

describe("GET and PUT /api/settings/notifications", () => {
  it("answers 429 with Retry-After past the person's saves; their partner and another person are not limited, whatever address is written", async () => {
    const us = await forumCouple();
    const them = await forumCouple();
    const save = (headers: Headers, i = 0) => put(headers, { preferences: { reply: { inApp: true, email: i % 2 === 0 } } });
    const statuses: number[] = [];
    for (let i = 0; i < LIMITS.notificationSettingsPerUser.limit; i++) statuses.push((await save(us.a.headers, i)).status);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const refused = await save(us.a.headers);
    expect(refused.status).toBe(429);
    expect(refused.json.error).toMatchObject({ code: "RATE_LIMITED", message: TOO_MANY_REQUESTS });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    for (const forged of FORGED_ADDRESS_HEADERS) expect((await save({ ...us.a.headers, ...forged })).status).toBe(429);
    for (const other of [us.b, them.a]) expect((await save(other.headers)).status).toBe(200);
  }, 120_000);

  it("answers the defaults, saves the types named and leaves the others", async () => {
    const { one } = await replyScene();
    const before = await call(getPrefs, "GET", "/api/settings/notifications", { headers: { cookie: one.a.headers.cookie! } });
    expect(before.json.data).toEqual({
      partner_joined: { inApp: true, email: true, push: false },
      reply: { inApp: true, email: true, push: false },
      mention: { inApp: true, email: true, push: false },
      reaction: { inApp: true, email: false, push: false },
      connection_request: { inApp: true, email: true, push: true },
      connection_accepted: { inApp: true, email: true, push: true },
      message: { inApp: true, email: true, push: true },
      plan_proposed: { inApp: true, email: true, push: true },
      plan_changed: { inApp: true, email: true, push: true },
      plan_cancelled: { inApp: true, email: true, push: true },
      plan_reminder: { inApp: true, email: true, push: true },
      plan_feedback: { inApp: true, email: false, push: false },
      partner_updated_couple_profile: { inApp: true, email: false, push: false },
      moderation: { inApp: true, email: true, push: false },
      photo_verification: { inApp: true, email: true, push: false },
    });
    const res = await put(one.a.headers, {
      preferences: { reply: { inApp: false, email: false, push: true }, reaction: { inApp: true, email: true } },
    });
    expect(res.status).toBe(200);
    expect(res.json.data.reply).toEqual({ inApp: false, email: false, push: true });
    expect(res.json.data.reaction).toEqual({ inApp: true, email: true, push: false });
    expect(res.json.data.mention).toEqual({ inApp: true, email: true, push: false });
    // A client that leaves push out (it came after the others) keeps the stored choice.
    const older = await put(one.a.headers, { preferences: { reply: { inApp: true, email: false } } });
    expect(older.json.data.reply).toEqual({ inApp: true, email: false, push: true });
    // The partner's choices are theirs alone.
    const partner = await call(getPrefs, "GET", "/api/settings/notifications", { headers: { cookie: one.b.headers.cookie! } });
    expect(partner.json.data.reply).toEqual({ inApp: true, email: true, push: false });
  });

  it("refuses bad bodies with 400 and signed-out calls with 401", async () => {
    const { one } = await replyScene();
    for (const body of [
      {},
      { preferences: { reply: { inApp: "yes", email: true } } },
      { preferences: { messages: { inApp: true, email: true } } },
      { preferences: { reply: { inApp: true } } },
      { preferences: { reply: { inApp: true, email: true, push: "yes" } } },
    ]) {
      expect((await put(one.a.headers, body)).status).toBe(400);
    }
    expect((await put({}, { preferences: {} })).status).toBe(401);
  });
});

describe("the notification writer follows the choices", () => {
  it("by default: in the app and by e-mail, with a one-click unsubscribe link and its headers", async () => {
    const { one, reply } = await replyScene();
    expect((await reply()).status).toBe(201);
    expect(await inApp(one.a.userId)).toHaveLength(1);
    const mails = await mailsTo(one.a.userId);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    const unsubscribeUrl = /https?:\/\/\S+\/unsubscribe\?token=\S+/.exec(mail.text)![0];
    const token = new URL(unsubscribeUrl).searchParams.get("token")!;
    expect(mail.headers).toEqual({
      "List-Unsubscribe": `<${new URL(`/api/notifications/unsubscribe?token=${token}`, unsubscribeUrl).toString()}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    expect(mail.html).toContain("Unsubscribe");
    // Only the token's hash is stored.
    const db = await getDb();
    const stored = await db.select().from(unsubscribeTokens).where(eq(unsubscribeTokens.userId, one.a.userId));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.tokenHash).not.toBe(token);
  });

  it("sends no e-mail when e-mail is off, and writes nothing in the app when in-app is off", async () => {
    const { one, reply } = await replyScene();
    await put(one.a.headers, { preferences: { reply: { inApp: true, email: false } } });
    await reply();
    expect(await mailsTo(one.a.userId)).toHaveLength(0);
    expect(await inApp(one.a.userId)).toHaveLength(1);
    await put(one.a.headers, { preferences: { reply: { inApp: false, email: true } } });
    await reply();
    expect(await mailsTo(one.a.userId)).toHaveLength(1);
    expect(await inApp(one.a.userId)).toHaveLength(1);
  });

  it("writes many at once (the plans' reminders and a cancellation), each as its own recipient chose, every e-mail its own words and link", async () => {
    const { one, two } = await replyScene();
    await put(one.b.headers, { preferences: { plan_reminder: { inApp: false, email: true } } });
    await put(two.a.headers, { preferences: { plan_reminder: { inApp: true, email: false } } });
    const people = [one.a.userId, one.b.userId, two.a.userId, two.b.userId];
    const db = await getDb();
    const list = [
      ...people.map((userId, index) => ({
        userId,
        type: "plan_reminder" as const,
        title: `Coming up: plan ${index}`,
        message: "Tomorrow",
      })),
      // A second type for two.a, whose e-mail for it is still on (the default).
      { userId: two.a.userId, type: "plan_cancelled" as const, title: "Cancelled: plan 4", message: "It can no longer take place" },
    ];
    const ids = await transaction(db, (tx) => createNotifications(tx, list));
    // In the app: each row its person's, the ids answered in the order given; none for one.b.
    expect(ids).toHaveLength(5);
    expect(ids[1]).toBeNull();
    const titlesOf = async (userId: string) =>
      (await inApp(userId)).map((row) => [row.id, row.type, row.title]).sort((x, y) => String(x[2]).localeCompare(String(y[2])));
    expect(await titlesOf(one.a.userId)).toEqual([[ids[0], "plan_reminder", "Coming up: plan 0"]]);
    expect(await titlesOf(two.a.userId)).toEqual([
      [ids[4], "plan_cancelled", "Cancelled: plan 4"],
      [ids[2], "plan_reminder", "Coming up: plan 2"],
    ]);
    expect(await titlesOf(two.b.userId)).toEqual([[ids[3], "plan_reminder", "Coming up: plan 3"]]);
    expect(await inApp(one.b.userId)).toHaveLength(0);
    // By e-mail: one each, two.a's for the cancellation alone (its reminders' e-mail is off), each in its own words.
    const mails = await Promise.all(people.map(mailsTo));
    expect(mails.map((sent) => sent.length)).toEqual([1, 1, 1, 1]);
    const expected = ["Coming up: plan 0", "Coming up: plan 1", "Cancelled: plan 4", "Coming up: plan 3"];
    mails.forEach((sent, index) => {
      expect(sent[0]!.text).toContain(expected[index]);
      for (const other of expected.filter((_, at) => at !== index)) expect(sent[0]!.text).not.toContain(other);
    });
    const tokenOf = (text: string) => new URL(/https?:\/\/\S+\/unsubscribe\?token=\S+/.exec(text)![0]).searchParams.get("token")!;
    const tokens = mails.flat().map((mail) => tokenOf(mail.text));
    expect(new Set(tokens).size).toBe(4);
    expect((await unsubscribe(tokenOf(mails[3]![0]!.text))).status).toBe(200);
    const emailChoice = async (userId: string) => {
      const [row] = await db
        .select({ email: notificationPreferences.email })
        .from(notificationPreferences)
        .where(and(eq(notificationPreferences.userId, userId), eq(notificationPreferences.type, "plan_reminder")));
      return row?.email ?? null;
    };
    expect(await emailChoice(two.b.userId)).toBe(false);
    expect(await emailChoice(one.a.userId)).toBeNull();
  });

  it("mails a group of reactions once, not per tap, when the person chose e-mail for reactions", async () => {
    const { one, two } = await replyScene();
    const three = await forumCouple();
    const post = await forum.create(postBody(), one.a.headers);
    expect((await forum.react("post", post.json.data.id, "heart", true, two.a.headers)).status).toBe(200);
    expect(await mailsTo(one.a.userId)).toHaveLength(0);
    await put(one.a.headers, { preferences: { reaction: { inApp: true, email: true } } });
    const other = await forum.create(postBody(), one.a.headers);
    await forum.react("post", other.json.data.id, "heart", true, two.a.headers);
    await forum.react("post", other.json.data.id, "heart", true, three.a.headers);
    expect(await mailsTo(one.a.userId)).toHaveLength(1);
  });
});

describe("POST /api/notifications/unsubscribe", () => {
  it("turns e-mail off for the link's type without signing in, once; in-app and other types stay", async () => {
    const { one, reply } = await replyScene();
    await reply();
    const [mail] = await mailsTo(one.a.userId);
    const token = new URL(/https?:\/\/\S+\/unsubscribe\?token=\S+/.exec(mail!.text)![0]).searchParams.get("token")!;
    const res = await unsubscribe(token);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: { type: "reply" } });
    const prefs = await call(getPrefs, "GET", "/api/settings/notifications", { headers: { cookie: one.a.headers.cookie! } });
    expect(prefs.json.data.reply).toEqual({ inApp: true, email: false, push: false });
    expect(prefs.json.data.mention).toEqual({ inApp: true, email: true, push: false });
    const again = await unsubscribe(token);
    expect(again.status).toBe(400);
    expect(again.json.error.code).toBe("INVALID_TOKEN");
    await reply();
    expect(await mailsTo(one.a.userId)).toHaveLength(1);
  });

  it("cannot be forged: a made-up or altered token changes nothing", async () => {
    const { one, reply } = await replyScene();
    await reply();
    const [mail] = await mailsTo(one.a.userId);
    const token = new URL(/https?:\/\/\S+\/unsubscribe\?token=\S+/.exec(mail!.text)![0]).searchParams.get("token")!;
    const altered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    for (const fake of [altered, "made-up", one.a.userId]) expect((await unsubscribe(fake)).status).toBe(400);
    expect((await call(unsubscribeRoute, "POST", "/api/notifications/unsubscribe")).status).toBe(400);
    const prefs = await call(getPrefs, "GET", "/api/settings/notifications", { headers: { cookie: one.a.headers.cookie! } });
    expect(prefs.json.data.reply).toEqual({ inApp: true, email: true, push: false });
  });

  it("is removed by the due work once expired, and a day after its use; a fresh one stays", async () => {
    const { one } = await replyScene();
    const db = await getDb();
    const [expired, used, fresh] = await issueUnsubscribeTokens(
      db,
      ["reply", "mention", "reply"].map((type) => ({ userId: one.a.userId, type: type as "reply" | "mention" })),
    );
    await db
      .update(unsubscribeTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(unsubscribeTokens.tokenHash, hashToken(expired!)));
    expect((await unsubscribe(used!)).status).toBe(200);
    const left = async () =>
      (
        await db
          .select({ tokenHash: unsubscribeTokens.tokenHash })
          .from(unsubscribeTokens)
          .where(eq(unsubscribeTokens.userId, one.a.userId))
      )
        .map((row) => row.tokenHash)
        .sort();

    // Other tests' links share the table: the report counts theirs too.
    expect((await runDueWork(db)).linksDropped).toBeGreaterThanOrEqual(1);
    expect(await left()).toEqual([hashToken(used!), hashToken(fresh!)].sort());
    const dayAfter = new Date(Date.now() + USED_UNSUBSCRIBE_KEPT_SECONDS * 1000 + 60_000);
    expect((await runDueWork(db, dayAfter)).linksDropped).toBeGreaterThanOrEqual(1);
    expect(await left()).toEqual([hashToken(fresh!)]);
  });
});

describe.skipIf(!onPostgres())("an unsubscribe link used as the settings page saves the same type", () => {
  it("turns e-mail off and nothing else: the in-app choice saved at that instant stays", async () => {
    const { one } = await replyScene();
    const db = await getDb();
    expect((await put(one.a.headers, { preferences: { reply: { inApp: true, email: true, push: true } } })).status).toBe(200);
    const [token] = await issueUnsubscribeTokens(db, [{ userId: one.a.userId, type: "reply" }]);
    // The settings page's save of 'reply' (in-app off) holds its row while the link is used.
    const { waited, answer } = await nextWhileWaiting(
      (tx) => tx`update notification_preferences set in_app = false where user_id = ${one.a.userId} and type = 'reply'`,
      () => unsubscribe(token!),
      async () => {},
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(200);
    const prefs = await call(getPrefs, "GET", "/api/settings/notifications", { headers: { cookie: one.a.headers.cookie! } });
    expect(prefs.json.data.reply).toEqual({ inApp: false, email: false, push: true });
  });
});
