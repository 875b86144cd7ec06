import { and, eq, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as changeEmail } from "@/app/api/auth/change-email/route";
import { POST as changePassword } from "@/app/api/auth/change-password/route";
import { POST as confirmEmail } from "@/app/api/auth/confirm-email/route";
import { DELETE as endSession } from "@/app/api/auth/sessions/[id]/route";
import { DELETE as endOthers, GET as listSessions } from "@/app/api/auth/sessions/route";
import { getDb } from "@/db/client";
import { bannedEmails, pushSubscriptions, sessions, users, userTokens } from "@/db/schema";
import { startApiSession } from "@/lib/auth/api-tokens";
import { authenticate } from "@/lib/auth/credentials";
import { pendingEmailChange } from "@/lib/auth/account-security";
import { verifyPassword } from "@/lib/auth/password";
import { queuePasswordReset, resetPassword } from "@/lib/auth/password-reset";
import { BROWSER_SESSION_SECONDS, sessionCookieName } from "@/lib/auth/session-token";
import { LIMITS } from "@/lib/rate-limit";
import { BANNED_EMAIL_CHANGE } from "@/lib/safety/rules";
import { bannedEmailHash } from "@/lib/safety/sanctions";
import { ENDED_WITH_OLD_PASSWORD } from "@/lib/registry/old-password";
import { PASSWORD, browserSession, call, createUser, freshAddress } from "../support/api";
import { apiSession, bearer, latestMail, linkInLatestMail, refreshGrant } from "../support/flows";
import { nextWhileWaiting, whileHeld } from "../support/lock-race";

const NEW_PASSWORD = "Brand-New-Pass9?";
type Headers = Record<string, string>;
const headersOf = (s: { cookie: string; csrf: string }): Headers => ({ cookie: s.cookie, "x-csrf-token": s.csrf });

async function person() {
  const user = await createUser();
  const session = await browserSession(user.id);
  return { user, session, headers: headersOf(session) };
}

const isLive = async (sid: string) => {
  const db = await getDb();
  const [row] = await db.select({ revokedAt: sessions.revokedAt }).from(sessions).where(eq(sessions.id, sid));
  return row !== undefined && row.revokedAt === null;
};

const postPassword = (headers: Headers, body: unknown) => call(changePassword, "POST", "/api/auth/change-password", { body, headers });
const postEmail = (headers: Headers, body: unknown) => call(changeEmail, "POST", "/api/auth/change-email", { body, headers });
const postConfirm = (headers: Headers, token: string) =>
  call(confirmEmail, "POST", "/api/auth/confirm-email", { body: { token }, headers });

/** The session cookie a response sets, as a Cookie header. */
const setSessionCookie = (res: Awaited<ReturnType<typeof call>>) =>
  res.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0]!)
    .find((cookie) => cookie.startsWith(`${sessionCookieName()}=`));

describe("POST /api/auth/change-password", () => {
  it("sets the new password and ends every other session, browser and API", async () => {
    const { user, headers } = await person();
    const other = await browserSession(user.id);
    const api = await apiSession(user.email);
    const res = await postPassword(headers, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: { sessionsEnded: 2 } });
    expect(await isLive(other.sid)).toBe(false);
    // The API client's token is refused now.
    const listed = await call(listSessions, "GET", "/api/auth/sessions", { headers: bearer(api.access_token) });
    expect(listed.status).toBe(401);
    const db = await getDb();
    const [row] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, user.id));
    expect(await verifyPassword(row!.hash, NEW_PASSWORD)).toBe(true);
    expect((await latestMail(user.email)).subject).toBe("Your password was changed");
  });

  it("opens no session for a sign-in that checked the old password before the change ended the other sessions", async () => {
    const { user, headers } = await person();
    const db = await getDb();
    // Checked, not yet opened: the change lands between the two.
    const signedIn = await authenticate(db, { email: user.email, password: PASSWORD }, { clientAddress: freshAddress() });
    expect((await postPassword(headers, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD })).status).toBe(200);
    await expect(startApiSession(db, signedIn)).rejects.toMatchObject({ code: "INVALID_CREDENTIALS" });
  });

  it("moves a browser onto a fresh session: a copy of its old cookie no longer works, its new cookie does", async () => {
    const { user, session, headers } = await person();
    const res = await postPassword(headers, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(res.status).toBe(200);
    const list = (cookie: string) => call(listSessions, "GET", "/api/auth/sessions", { headers: { cookie } });
    expect((await list(session.cookie)).status).toBe(401);
    expect(await isLive(session.sid)).toBe(false);
    const fresh = setSessionCookie(res);
    expect(fresh).toBeDefined();
    const signedIn = await list(fresh!);
    expect(signedIn.status).toBe(200);
    expect(signedIn.json.data).toEqual([expect.objectContaining({ kind: "browser", current: true })]);
    expect(signedIn.json.data[0].id).not.toBe(session.sid);
    const db = await getDb();
    const [row] = await db.select({ userId: sessions.userId }).from(sessions).where(eq(sessions.id, signedIn.json.data[0].id));
    expect(row!.userId).toBe(user.id);
  });

  it("gives an API client a fresh token pair in its answer: its old access and refresh tokens no longer work", async () => {
    const user = await createUser();
    const old = await apiSession(user.email);
    const res = await postPassword(bearer(old.access_token), { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(res.status).toBe(200);
    const list = (accessToken: string) => call(listSessions, "GET", "/api/auth/sessions", { headers: bearer(accessToken) });
    expect((await list(old.access_token)).status).toBe(401);
    expect((await refreshGrant(old.refresh_token)).status).toBe(401);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.json.data).toEqual({
      sessionsEnded: 0,
      session: {
        access_token: expect.any(String),
        refresh_token: expect.any(String),
        expires_at: expect.any(Number),
        user: { id: user.id, email: user.email, email_confirmed_at: expect.any(String) },
      },
    });
    const fresh = res.json.data.session;
    expect((await list(fresh.access_token)).status).toBe(200);
    expect((await refreshGrant(fresh.refresh_token)).status).toBe(200);
  });

  it("keeps this device's push subscription on the fresh session", async () => {
    const { user, session, headers } = await person();
    const db = await getDb();
    const [device] = await db
      .insert(pushSubscriptions)
      .values({
        userId: user.id,
        sessionId: session.sid,
        endpoint: `https://push.example/${session.sid}`,
        p256dh: "k",
        auth: "a",
        label: "Phone",
      })
      .returning({ id: pushSubscriptions.id });
    const res = await postPassword(headers, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    const signedIn = await call(listSessions, "GET", "/api/auth/sessions", { headers: { cookie: setSessionCookie(res)! } });
    const [row] = await db
      .select({ sessionId: pushSubscriptions.sessionId })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.id, device!.id));
    expect(row!.sessionId).toBe(signedIn.json.data[0].id);
  });

  it("refuses a wrong current password with 403 INVALID_PASSWORD, nothing changed", async () => {
    const { user, headers } = await person();
    const other = await browserSession(user.id);
    const res = await postPassword(headers, { currentPassword: "Wrong-Horse7!", newPassword: NEW_PASSWORD });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe("INVALID_PASSWORD");
    expect(await isLive(other.sid)).toBe(true);
    const db = await getDb();
    const [row] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, user.id));
    expect(await verifyPassword(row!.hash, PASSWORD)).toBe(true);
  });

  it("refuses a weak new password with 400 VALIDATION_ERROR and the registration rule's message", async () => {
    const { headers } = await person();
    const res = await postPassword(headers, { currentPassword: PASSWORD, newPassword: "alllowercase1!" });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: "VALIDATION_ERROR", message: "Password must contain at least one uppercase letter" });
  });

  it("needs a session and the CSRF token", async () => {
    const { session } = await person();
    expect((await postPassword({}, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD })).status).toBe(401);
    expect((await postPassword({ cookie: session.cookie }, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD })).status).toBe(403);
  });

  it("limits wrong guesses per person", async () => {
    const { headers } = await person();
    for (let i = 0; i < 10; i++)
      expect((await postPassword(headers, { currentPassword: `Wrong-${i}a!A`, newPassword: NEW_PASSWORD })).status).toBe(403);
    const res = await postPassword(headers, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(res.status).toBe(429);
  });

  it("checks no more wrong guesses than the limit when they arrive at once, then refuses the right password too", async () => {
    const { headers } = await person();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => postPassword(headers, { currentPassword: `Wrong-${i}a!A`, newPassword: NEW_PASSWORD })),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status === 403).length).toBeLessThanOrEqual(LIMITS.passwordConfirmPerUser.limit);
    expect(statuses.filter((status) => status !== 403).every((status) => status === 429 || status === 503)).toBe(true);
    expect((await postPassword(headers, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD })).status).toBe(429);
  });
});

describe("POST /api/auth/change-email and the confirmation link", () => {
  it("sends a link to the new address and a notice to the old; the address changes only when the link is used", async () => {
    const { user, session, headers } = await person();
    const newEmail = `moved-${Date.now()}@example.com`;
    const res = await postEmail(headers, { password: PASSWORD, newEmail: ` ${newEmail.toUpperCase()} ` });
    expect(res.status).toBe(200);
    const db = await getDb();
    const before = await db.select({ email: users.email }).from(users).where(eq(users.id, user.id));
    expect(before[0]!.email).toBe(user.email);

    const notice = await latestMail(user.email);
    expect(notice.subject).toBe("Your email address is being changed");
    expect(notice.text).toContain(newEmail);
    const link = await linkInLatestMail(newEmail);
    expect(link.pathname).toBe("/settings/confirm-email");
    const token = link.searchParams.get("token")!;
    // Only the hash is stored.
    const stored = await db
      .select()
      .from(userTokens)
      .where(and(eq(userTokens.userId, user.id), eq(userTokens.purpose, "change_email")));
    expect(stored.map((t) => t.tokenHash)).not.toContain(token);

    const confirmed = await postConfirm(headers, token);
    expect(confirmed.status).toBe(200);
    expect(confirmed.json).toEqual({ data: { email: newEmail } });
    const [after] = await db.select({ email: users.email }).from(users).where(eq(users.id, user.id));
    expect(after!.email).toBe(newEmail);
    expect(await isLive(session.sid)).toBe(true);
    // Works once.
    expect((await postConfirm(headers, token)).status).toBe(400);
  });

  it("names the new address on the link's page to the account that asked, and to nobody else, only while the link works", async () => {
    const { user, headers } = await person();
    const other = await person();
    const db = await getDb();
    const newEmail = `moved-${Date.now()}@example.com`;
    expect((await postEmail(headers, { password: PASSWORD, newEmail })).status).toBe(200);
    const token = (await linkInLatestMail(newEmail)).searchParams.get("token")!;

    expect(await pendingEmailChange(db, user.id, token)).toBe(newEmail);
    // Another account signed in on the link (one who found it, or the new address's own account).
    expect(await pendingEmailChange(db, other.user.id, token)).toBeNull();
    expect(await pendingEmailChange(db, user.id, `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`)).toBeNull();
    expect(await pendingEmailChange(db, user.id, "x".repeat(10_000))).toBeNull();
    await db
      .update(userTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(userTokens.userId, user.id), eq(userTokens.purpose, "change_email")));
    expect(await pendingEmailChange(db, user.id, token)).toBeNull();
    // A used link names nothing either.
    await db
      .update(userTokens)
      .set({ expiresAt: new Date(Date.now() + 60_000) })
      .where(and(eq(userTokens.userId, user.id), eq(userTokens.purpose, "change_email")));
    expect((await postConfirm(headers, token)).status).toBe(200);
    expect(await pendingEmailChange(db, user.id, token)).toBeNull();
  });

  it("ends the links mailed to the old address once the new one is confirmed: a reset asked from the old mailbox no longer works", async () => {
    const { user, headers } = await person();
    const db = await getDb();
    const newEmail = `moved-${Date.now()}@example.com`;
    expect((await postEmail(headers, { password: PASSWORD, newEmail })).status).toBe(200);
    // Whoever reads the old mailbox saw the notice, and asks for a reset there before the change is confirmed.
    await queuePasswordReset(db, user.email);
    const resetToken = (await linkInLatestMail(user.email)).searchParams.get("token")!;
    const changeToken = (await linkInLatestMail(newEmail)).searchParams.get("token")!;
    expect((await postConfirm(headers, changeToken)).status).toBe(200);
    await expect(resetPassword(db, { token: resetToken, password: NEW_PASSWORD }, ENDED_WITH_OLD_PASSWORD)).rejects.toMatchObject({
      code: "INVALID_TOKEN",
    });
    const [after] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, user.id));
    expect(await verifyPassword(after!.hash, PASSWORD)).toBe(true);
  });

  it("ends a pending change asked with the old password once the password is reset or changed: its link no longer moves the account", async () => {
    const db = await getDb();
    for (const how of ["reset", "change"] as const) {
      const { user, headers } = await person();
      // Whoever asked knew the old password (a thief's move); the owner answers with a new password.
      const theirs = `taker-${how}-${Date.now()}@example.com`;
      expect((await postEmail(headers, { password: PASSWORD, newEmail: theirs })).status).toBe(200);
      const changeToken = (await linkInLatestMail(theirs)).searchParams.get("token")!;
      if (how === "reset") {
        await queuePasswordReset(db, user.email);
        const resetToken = (await linkInLatestMail(user.email)).searchParams.get("token")!;
        await resetPassword(db, { token: resetToken, password: NEW_PASSWORD }, ENDED_WITH_OLD_PASSWORD);
      } else {
        expect((await postPassword(headers, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD })).status).toBe(200);
      }
      // The owner, signed in afresh, is lured into opening the link: nothing changes.
      const owner = headersOf(await browserSession(user.id));
      const res = await postConfirm(owner, changeToken);
      expect(res.status, how).toBe(400);
      expect(res.json.error.code).toBe("INVALID_TOKEN");
      const [after] = await db.select({ email: users.email }).from(users).where(eq(users.id, user.id));
      expect(after!.email).toBe(user.email);
    }
  });

  it("refuses a wrong password (403), the same address (400), a taken address (409), a bad address (400)", async () => {
    const { user, headers } = await person();
    const taken = await createUser();
    expect((await postEmail(headers, { password: "Wrong-Horse7!", newEmail: "x-new@example.com" })).json.error.code).toBe(
      "INVALID_PASSWORD",
    );
    expect((await postEmail(headers, { password: PASSWORD, newEmail: user.email })).status).toBe(400);
    const exists = await postEmail(headers, { password: PASSWORD, newEmail: taken.email });
    expect(exists.status).toBe(409);
    expect(exists.json.error.code).toBe("EMAIL_EXISTS");
    expect((await postEmail(headers, { password: PASSWORD, newEmail: "not-an-address" })).status).toBe(400);
  });

  it("refuses a banned couple's partner's address as registration does (its keyed hash), at the request and at the link", async () => {
    const db = await getDb();
    const { user, headers } = await person();
    const banned = `banned-${Date.now()}@example.com`;
    await db.insert(bannedEmails).values({ emailHash: bannedEmailHash(banned) });
    const refused = await postEmail(headers, { password: PASSWORD, newEmail: ` ${banned.toUpperCase()} ` });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toMatchObject({ code: "FORBIDDEN", message: BANNED_EMAIL_CHANGE });
    expect(
      await db
        .select()
        .from(userTokens)
        .where(and(eq(userTokens.userId, user.id), eq(userTokens.purpose, "change_email"))),
    ).toEqual([]);

    // Banned after the link was sent: the link changes nothing.
    const later = `banned-later-${Date.now()}@example.com`;
    expect((await postEmail(headers, { password: PASSWORD, newEmail: later })).status).toBe(200);
    const token = (await linkInLatestMail(later)).searchParams.get("token")!;
    await db.insert(bannedEmails).values({ emailHash: bannedEmailHash(later) });
    const confirmed = await postConfirm(headers, token);
    expect(confirmed.status).toBe(403);
    expect(confirmed.json.error.message).toBe(BANNED_EMAIL_CHANGE);
    const [after] = await db.select({ email: users.email }).from(users).where(eq(users.id, user.id));
    expect(after!.email).toBe(user.email);
  });

  it("counts every attempt before looking the address up: 409s stop at the hourly limit, so addresses cannot be probed without end", async () => {
    const { headers } = await person();
    const taken = await createUser();
    for (let i = 0; i < LIMITS.emailChangePerUser.limit; i++) {
      expect((await postEmail(headers, { password: PASSWORD, newEmail: taken.email })).json.error.code).toBe("EMAIL_EXISTS");
    }
    const probe = await postEmail(headers, { password: PASSWORD, newEmail: taken.email });
    expect(probe.status).toBe(429);
    expect(probe.json.error.code).toBe("RATE_LIMITED");
    expect((await postEmail(headers, { password: PASSWORD, newEmail: `fresh-${Date.now()}@example.com` })).status).toBe(429);
  });

  it("two people confirming links to the same new address at once: one gets it, the other 409 EMAIL_EXISTS (never a 500)", async () => {
    const a = await person();
    const b = await person();
    const wanted = `race-${Date.now()}@example.com`;
    expect((await postEmail(a.headers, { password: PASSWORD, newEmail: wanted })).status).toBe(200);
    const tokenA = (await linkInLatestMail(wanted)).searchParams.get("token")!;
    expect((await postEmail(b.headers, { password: PASSWORD, newEmail: wanted })).status).toBe(200);
    const tokenB = (await linkInLatestMail(wanted)).searchParams.get("token")!;
    const answers = await Promise.all([postConfirm(a.headers, tokenA), postConfirm(b.headers, tokenB)]);
    expect(answers.map((res) => res.status).sort()).toEqual([200, 409]);
    expect(answers.find((res) => res.status === 409)!.json.error.code).toBe("EMAIL_EXISTS");
  });

  it("two changes asked at once leave one live link: the other is ended, never both usable", async () => {
    const { user, headers } = await person();
    const [one, other] = [`one-${Date.now()}@example.com`, `other-${Date.now()}@example.com`];
    // Both requests pass their checks, then meet at their writes (the person's row held meanwhile).
    const answers = await whileHeld(
      (tx) => tx`select id from users where id = ${user.id} for update`,
      [() => postEmail(headers, { password: PASSWORD, newEmail: one }), () => postEmail(headers, { password: PASSWORD, newEmail: other })],
    );
    expect(answers.map((res) => res.status)).toEqual([200, 200]);
    const db = await getDb();
    const live = await db
      .select({ newEmail: userTokens.newEmail })
      .from(userTokens)
      .where(and(eq(userTokens.userId, user.id), eq(userTokens.purpose, "change_email"), isNull(userTokens.usedAt)));
    expect(live).toHaveLength(1);
    const tokens = await Promise.all([one, other].map(async (email) => (await linkInLatestMail(email)).searchParams.get("token")!));
    const confirmed = await Promise.all(tokens.map((token) => postConfirm(headers, token)));
    expect(confirmed.map((res) => res.status).sort()).toEqual([200, 400]);
  });

  it("refuses another person's link, an unknown one and a replaced one, nothing changed", async () => {
    const a = await person();
    const b = await person();
    const first = `first-${Date.now()}@example.com`;
    const second = `second-${Date.now()}@example.com`;
    await postEmail(a.headers, { password: PASSWORD, newEmail: first });
    const firstToken = (await linkInLatestMail(first)).searchParams.get("token")!;
    await postEmail(a.headers, { password: PASSWORD, newEmail: second });
    const secondToken = (await linkInLatestMail(second)).searchParams.get("token")!;
    expect((await postConfirm(a.headers, firstToken)).status).toBe(400);
    expect((await postConfirm(b.headers, secondToken)).json.error.code).toBe("INVALID_TOKEN");
    expect((await postConfirm(a.headers, "made-up-token")).status).toBe(400);
    const db = await getDb();
    const rows = await db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, b.user.id));
    expect(rows[0]!.email).toBe(b.user.email);
    expect((await postConfirm(a.headers, secondToken)).status).toBe(200);
  });
});

describe("last seen", () => {
  it("is written when a session is used, at most once every few minutes", async () => {
    const { session, headers } = await person();
    const db = await getDb();
    const old = new Date(Date.now() - 60 * 60 * 1000);
    await db.update(sessions).set({ lastSeenAt: old }).where(eq(sessions.id, session.sid));
    await call(listSessions, "GET", "/api/auth/sessions", { headers: { cookie: headers.cookie! } });
    const [first] = await db.select({ at: sessions.lastSeenAt }).from(sessions).where(eq(sessions.id, session.sid));
    expect(first!.at!.getTime()).toBeGreaterThan(Date.now() - 60_000);
    // Used again at once: not written again.
    await db.update(sessions).set({ lastSeenAt: old }).where(eq(sessions.id, session.sid));
    await call(listSessions, "GET", "/api/auth/sessions", { headers: { cookie: headers.cookie! } });
    const [second] = await db.select({ at: sessions.lastSeenAt }).from(sessions).where(eq(sessions.id, session.sid));
    expect(second!.at!.getTime()).toBe(old.getTime());
  });

  it("slides a browser session's end to 14 days past its use, never an API session's, and never revives an ended one", async () => {
    const { user, session, headers } = await person();
    const api = await apiSession(user.email);
    const ended = await browserSession(user.id);
    const db = await getDb();
    const soon = new Date(Date.now() + 60 * 60 * 1000);
    const old = new Date(Date.now() - 60 * 60 * 1000);
    const endOf = async (sid: string) =>
      (await db.select({ at: sessions.expiresAt }).from(sessions).where(eq(sessions.id, sid)))[0]!.at.getTime();
    await db.update(sessions).set({ expiresAt: soon, lastSeenAt: old }).where(eq(sessions.userId, user.id));
    await db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, ended.sid));
    const before = Date.now();
    await call(listSessions, "GET", "/api/auth/sessions", { headers: { cookie: headers.cookie! } });
    await call(listSessions, "GET", "/api/auth/sessions", { headers: bearer(api.access_token) });
    await call(listSessions, "GET", "/api/auth/sessions", { headers: headersOf(ended) });
    expect(await endOf(session.sid)).toBeGreaterThanOrEqual(before + BROWSER_SESSION_SECONDS * 1000);
    const [apiRow] = await db
      .select({ at: sessions.expiresAt })
      .from(sessions)
      .where(and(eq(sessions.userId, user.id), eq(sessions.kind, "api")));
    expect(apiRow!.at.getTime()).toBe(soon.getTime());
    expect(await endOf(ended.sid)).toBe(soon.getTime());
  });
});

describe("GET and DELETE /api/auth/sessions", () => {
  it("lists the caller's live sessions with their device, current first, without secrets", async () => {
    const { user, session, headers } = await person();
    await apiSession(user.email);
    const ended = await browserSession(user.id);
    const db = await getDb();
    await db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, ended.sid));
    await db
      .update(sessions)
      .set({
        userAgent:
          "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
      })
      .where(eq(sessions.id, session.sid));
    const someoneElse = await person();
    const res = await call(listSessions, "GET", "/api/auth/sessions", { headers: { cookie: headers.cookie! } });
    expect(res.status).toBe(200);
    expect(res.json.data).toHaveLength(2);
    expect(res.json.data[0]).toEqual({
      id: session.sid,
      device: "Safari on iPhone",
      kind: "browser",
      current: true,
      createdAt: expect.any(String),
      lastSeenAt: expect.any(String),
    });
    expect(res.json.data[1]).toMatchObject({ kind: "api", current: false });
    expect(res.json.data.map((s: { id: string }) => s.id)).not.toContain(someoneElse.session.sid);
  });

  it("signs out one own session; another person's id is 404 with nothing changed", async () => {
    const { user, headers } = await person();
    const mine = await browserSession(user.id);
    const other = await person();
    const del = (id: string) => call(endSession, "DELETE", `/api/auth/sessions/${id}`, { headers, params: { id } });
    const refused = await del(other.session.sid);
    expect(refused.status).toBe(404);
    expect(await isLive(other.session.sid)).toBe(true);
    expect((await del(mine.sid)).status).toBe(200);
    expect(await isLive(mine.sid)).toBe(false);
    expect((await del(mine.sid)).status).toBe(404);
    expect((await del("not-a-uuid")).status).toBe(400);
  });

  it("'Sign out everywhere else' ends the others and keeps this one", async () => {
    const { user, session, headers } = await person();
    const b1 = await browserSession(user.id);
    const b2 = await browserSession(user.id);
    const other = await person();
    const res = await call(endOthers, "DELETE", "/api/auth/sessions", { headers });
    expect(res.json).toEqual({ data: { sessionsEnded: 2 } });
    expect(await isLive(session.sid)).toBe(true);
    expect(await isLive(b1.sid)).toBe(false);
    expect(await isLive(b2.sid)).toBe(false);
    expect(await isLive(other.session.sid)).toBe(true);
  });

  it("'Sign out everywhere else' holds the person's session openings until its ending commits", async () => {
    const { user, headers } = await person();
    const another = await browserSession(user.id);
    let openingsFree: boolean | undefined;
    // The ending waits on the other session's row; meanwhile an opening (lib/auth/sessions.ts holdSessionOpenings) tries its lock.
    const { waited, answer } = await nextWhileWaiting(
      (tx) => tx`select id from sessions where id = ${another.sid} for update`,
      () => call(endOthers, "DELETE", "/api/auth/sessions", { headers }),
      async (tx) => {
        const [row] = await tx`select pg_try_advisory_xact_lock(hashtextextended(${`sessions:${user.id}`}, 0)) as taken`;
        openingsFree = row!.taken as boolean;
      },
    );
    expect(waited).toBe(true);
    expect(openingsFree).toBe(false);
    expect(answer.json).toEqual({ data: { sessionsEnded: 1 } });
    expect(await isLive(another.sid)).toBe(false);
  });
});
