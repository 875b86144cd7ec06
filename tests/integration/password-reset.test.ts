import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailOutbox, userTokens, users } from "@/db/schema";
import { authenticate } from "@/lib/auth/credentials";
import { queuePasswordReset, requestPasswordReset, resetPassword, type AfterAnswer } from "@/lib/auth/password-reset";
import { PASSWORD_REQUIRED_MESSAGE, verifyEmail } from "@/lib/auth/email-verification";
import { withPasswordSlot } from "@/lib/auth/password";
import { PASSWORD_SLOTS } from "@/lib/thread-pool";
import { resetPasswordSchema } from "@/lib/auth/schemas";
import { activeSessionUser } from "@/lib/auth/sessions";
import { startApiSession } from "@/lib/auth/api-tokens";
import { ENDED_WITH_OLD_PASSWORD } from "@/lib/registry/old-password";
import { PASSWORD, browserSession, createUser, freshAddress } from "../support/api";
import { apiSession, bearer, latestMail, linkInLatestMail, refreshGrant } from "../support/flows";
import { waitsOn } from "../support/lock-race";

const NEW_PASSWORD = "Brand-New-Pass9?";
const ctx = () => ({ clientAddress: freshAddress() });

/** Asks for a reset of the user's password and returns the token from the e-mail. */
async function resetToken(email: string) {
  const db = await getDb();
  const { emailIds } = await queuePasswordReset(db, email);
  expect(emailIds).toHaveLength(1);
  return (await linkInLatestMail(email)).searchParams.get("token")!;
}

async function outboxFor(to: string) {
  const db = await getDb();
  return db.select().from(emailOutbox).where(eq(emailOutbox.to, to));
}

const signIn = async (email: string, password: string) => authenticate(await getDb(), { email, password }, ctx());

/** Work meant for after the answer, left undone. */
const skip: AfterAnswer = () => undefined;

describe("requestPasswordReset", () => {
  it("does the same work before answering a known and an unknown address: the lookup, the link and the e-mail come after the answer", async () => {
    const user = await createUser();
    const db = await getDb();
    const later: (() => Promise<void>)[] = [];
    await requestPasswordReset(db, user.email, ctx(), (work) => later.push(work));
    await requestPasswordReset(db, "nobody-at-all@example.com", ctx(), (work) => later.push(work));
    expect(later).toHaveLength(2);
    expect(await db.select().from(userTokens).where(eq(userTokens.userId, user.id))).toHaveLength(0);
    expect(await outboxFor(user.email)).toHaveLength(0);
    for (const work of later) await work();
    expect(await db.select().from(userTokens).where(eq(userTokens.userId, user.id))).toHaveLength(1);
    expect(await outboxFor(user.email)).toHaveLength(1);
    expect(await outboxFor("nobody-at-all@example.com")).toHaveLength(0);
  });

  it("returns without error for an unknown e-mail and sends nothing", async () => {
    const db = await getDb();
    const before = (await db.select().from(emailOutbox)).length;
    await expect(queuePasswordReset(db, "nobody-here@example.com")).resolves.toEqual({ emailIds: [] });
    expect(await db.select().from(emailOutbox)).toHaveLength(before);
    expect(await outboxFor("nobody-here@example.com")).toHaveLength(0);
  });

  it("sends a known e-mail one message with an absolute link to /reset-password", async () => {
    const user = await createUser();
    const db = await getDb();
    const { emailIds } = await queuePasswordReset(db, user.email);
    expect(emailIds).toHaveLength(1);
    const mail = await latestMail(user.email);
    expect(mail.subject).toBe("Reset your password");
    expect(mail.text).toMatch(/http:\/\/localhost:3000\/reset-password\?token=[\w-]{43}(\s|$)/);
    expect(mail.html).toContain("http://localhost:3000/reset-password?token=");
    expect(await outboxFor(user.email)).toHaveLength(1);
  });

  it("stores only a hash of the reset token, valid for 1 hour", async () => {
    const user = await createUser();
    const token = await resetToken(user.email);
    const db = await getDb();
    const [row] = await db.select().from(userTokens).where(eq(userTokens.userId, user.id));
    expect(row!.purpose).toBe("reset_password");
    expect(row!.tokenHash).not.toBe(token);
    expect(Math.abs(row!.expiresAt.getTime() - row!.createdAt.getTime() - 3600_000)).toBeLessThan(60_000);
  });

  it("sends an account made with a shareable link, never verified, its verification link instead: the password is chosen there, told why", async () => {
    const user = await createUser();
    const db = await getDb();
    await db.update(users).set({ registrationType: "partner_invitation", emailVerifiedAt: null }).where(eq(users.id, user.id));
    const { emailIds } = await queuePasswordReset(db, user.email);
    expect(emailIds).toHaveLength(1);
    const link = await linkInLatestMail(user.email);
    expect(link.pathname).toBe("/verify-email");
    const token = link.searchParams.get("token")!;
    await expect(verifyEmail(db, { token })).rejects.toMatchObject({ code: "PASSWORD_REQUIRED", message: PASSWORD_REQUIRED_MESSAGE });
    await verifyEmail(db, { token, password: NEW_PASSWORD });
    await expect(signIn(user.email, NEW_PASSWORD)).resolves.toBeTruthy();
  });

  it("sends at most 3 reset e-mails an hour to one account, answering the same each time", async () => {
    const user = await createUser();
    const db = await getDb();
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await queuePasswordReset(db, user.email));
    expect(answers.map((a) => a.emailIds.length)).toEqual([1, 1, 1, 0, 0]);
    expect(await outboxFor(user.email)).toHaveLength(3);
  });

  it("limits reset requests from one address with RATE_LIMITED", async () => {
    const db = await getDb();
    const address = { clientAddress: freshAddress() };
    for (let i = 0; i < 20; i++) await requestPasswordReset(db, `someone${i}@example.com`, address, skip);
    await expect(requestPasswordReset(db, "someone@example.com", address, skip)).rejects.toMatchObject({
      code: "RATE_LIMITED",
      status: 429,
    });
  });
});

describe("resetPassword", () => {
  it("sets the new password: sign-in works with it and no longer with the old one", async () => {
    const user = await createUser();
    const token = await resetToken(user.email);
    await resetPassword(await getDb(), { token, password: NEW_PASSWORD }, ENDED_WITH_OLD_PASSWORD);
    await expect(signIn(user.email, NEW_PASSWORD)).resolves.toMatchObject({ id: user.id });
    await expect(signIn(user.email, PASSWORD)).rejects.toMatchObject({ code: "INVALID_CREDENTIALS" });
  });

  it("lifts a sign-in lockout, so the new password works at once", async () => {
    const user = await createUser();
    const here = ctx();
    const signInHere = async (password: string) => authenticate(await getDb(), { email: user.email, password }, here);
    for (let i = 0; i < 5; i++) await expect(signInHere(`Wrong-${i}`)).rejects.toMatchObject({ code: "INVALID_CREDENTIALS" });
    await expect(signInHere(PASSWORD)).rejects.toMatchObject({ code: "ACCOUNT_LOCKED" });
    await resetPassword(await getDb(), { token: await resetToken(user.email), password: NEW_PASSWORD }, ENDED_WITH_OLD_PASSWORD);
    await expect(signInHere(NEW_PASSWORD)).resolves.toMatchObject({ id: user.id });
  });

  it("works once only", async () => {
    const user = await createUser();
    const token = await resetToken(user.email);
    const db = await getDb();
    await resetPassword(db, { token, password: NEW_PASSWORD }, ENDED_WITH_OLD_PASSWORD);
    await expect(resetPassword(db, { token, password: "Another-Pass1!" }, ENDED_WITH_OLD_PASSWORD)).rejects.toMatchObject({
      code: "INVALID_TOKEN",
      message: "This password reset link is invalid or has expired. Please request a new one.",
    });
    await expect(signIn(user.email, NEW_PASSWORD)).resolves.toMatchObject({ id: user.id });
  });

  it("hashes the new password in a sign-in's slot, as registration does: 503 while every slot stays busy, changing nothing", async () => {
    const user = await createUser();
    const token = await resetToken(user.email);
    const db = await getDb();
    let free!: () => void;
    const busy = new Promise<void>((resolve) => (free = resolve));
    const holders = Array.from({ length: PASSWORD_SLOTS }, () => withPasswordSlot(() => busy));
    await expect(resetPassword(db, { token, password: NEW_PASSWORD }, ENDED_WITH_OLD_PASSWORD)).rejects.toMatchObject({
      code: "SERVICE_UNAVAILABLE",
      extra: { retryAfterSeconds: 1 },
    });
    free();
    await Promise.all(holders);
    await expect(signIn(user.email, PASSWORD)).resolves.toMatchObject({ id: user.id });
    // The link was not used up: it still sets the password once a slot is free.
    await resetPassword(db, { token, password: NEW_PASSWORD }, ENDED_WITH_OLD_PASSWORD);
    await expect(signIn(user.email, NEW_PASSWORD)).resolves.toMatchObject({ id: user.id });
  });

  it("lets only one of two simultaneous uses of a link through", async () => {
    const user = await createUser();
    const token = await resetToken(user.email);
    const db = await getDb();
    const results = await Promise.allSettled([
      resetPassword(db, { token, password: "First-Pass1!" }, ENDED_WITH_OLD_PASSWORD),
      resetPassword(db, { token, password: "Second-Pass1!" }, ENDED_WITH_OLD_PASSWORD),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
  });

  it("refuses a link after its hour has passed", async () => {
    const user = await createUser();
    const token = await resetToken(user.email);
    const db = await getDb();
    await db
      .update(userTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(userTokens.userId, user.id));
    await expect(resetPassword(db, { token, password: NEW_PASSWORD }, ENDED_WITH_OLD_PASSWORD)).rejects.toMatchObject({
      code: "INVALID_TOKEN",
    });
    await expect(signIn(user.email, PASSWORD)).resolves.toMatchObject({ id: user.id });
  });

  it("kills the account's other outstanding reset links", async () => {
    const user = await createUser();
    const first = await resetToken(user.email);
    const second = await resetToken(user.email);
    const db = await getDb();
    await resetPassword(db, { token: second, password: NEW_PASSWORD }, ENDED_WITH_OLD_PASSWORD);
    await expect(resetPassword(db, { token: first, password: "Sneaky-Pass1!" }, ENDED_WITH_OLD_PASSWORD)).rejects.toMatchObject({
      code: "INVALID_TOKEN",
    });
  });

  it("does not accept an e-mail verification token as a reset token", async () => {
    const user = await createUser({ emailVerifiedAt: null });
    const db = await getDb();
    const { issueVerificationEmail } = await import("@/lib/auth/email-verification");
    await issueVerificationEmail(db, user);
    const verifyToken = (await linkInLatestMail(user.email)).searchParams.get("token")!;
    await expect(resetPassword(db, { token: verifyToken, password: NEW_PASSWORD }, ENDED_WITH_OLD_PASSWORD)).rejects.toMatchObject({
      code: "INVALID_TOKEN",
    });
  });

  it("ends every session of the user: browser sessions and API refresh tokens alike", async () => {
    const user = await createUser();
    const other = await createUser();
    const db = await getDb();
    const browser = await browserSession(user.id);
    const api = await apiSession(user.email);
    const bystander = await browserSession(other.id);
    expect(await activeSessionUser(db, browser.sid)).toBe(user.id);

    await resetPassword(db, { token: await resetToken(user.email), password: NEW_PASSWORD }, ENDED_WITH_OLD_PASSWORD);

    expect(await activeSessionUser(db, browser.sid)).toBeNull();
    expect((await refreshGrant(api.refresh_token)).status).toBe(401);
    const { GET: me } = await import("@/app/api/v2/auth/me/route");
    const { call } = await import("../support/api");
    expect((await call(me, "GET", "/api/v2/auth/me", { headers: bearer(api.access_token) })).status).toBe(401);
    expect(await activeSessionUser(db, bystander.sid)).toBe(other.id);
  });

  it("opens no session for a sign-in that checked the old password before the reset ended the sessions", async () => {
    const user = await createUser();
    const db = await getDb();
    // Checked, not yet opened: the reset lands between the two.
    const signedIn = await signIn(user.email, PASSWORD);
    await resetPassword(db, { token: await resetToken(user.email), password: NEW_PASSWORD }, ENDED_WITH_OLD_PASSWORD);
    await expect(startApiSession(db, signedIn)).rejects.toMatchObject({ code: "INVALID_CREDENTIALS" });
    await expect(signIn(user.email, NEW_PASSWORD)).resolves.toMatchObject({ id: user.id });
  });

  it("waits for a session being opened meanwhile, so its revocation ends that one too", async () => {
    const user = await createUser();
    const db = await getDb();
    const token = await resetToken(user.email);
    // A sign-in's session opening holds the person's openings (lib/auth/sessions.ts openSession) until it commits.
    const { waited } = await waitsOn(
      (tx) => tx`select pg_advisory_xact_lock(hashtextextended(${`sessions:${user.id}`}, 0))`,
      () => resetPassword(db, { token, password: NEW_PASSWORD }, ENDED_WITH_OLD_PASSWORD),
    );
    expect(waited).toBe(true);
  });

  it("counts the address as verified, since the link proves the mailbox", async () => {
    const user = await createUser({ emailVerifiedAt: null });
    await resetPassword(await getDb(), { token: await resetToken(user.email), password: NEW_PASSWORD }, ENDED_WITH_OLD_PASSWORD);
    const db = await getDb();
    const [row] = await db.select({ at: users.emailVerifiedAt }).from(users).where(eq(users.id, user.id));
    expect(row!.at).toBeInstanceOf(Date);
  });
});

describe("resetPasswordSchema (the reset form's and action's password rule)", () => {
  it("refuses a 5-character password with 'Password must be at least 6 characters long.'", () => {
    const result = resetPasswordSchema.safeParse("abcde");
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.message).toBe("Password must be at least 6 characters long.");
  });

  it("accepts a 6-character password", () => {
    expect(resetPasswordSchema.safeParse("abcdef").success).toBe(true);
  });
});
