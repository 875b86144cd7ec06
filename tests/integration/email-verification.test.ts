import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as resend } from "@/app/api/email-verification/resend/route";
import { POST as verify } from "@/app/api/email-verification/verify/route";
import { GET as outbox } from "@/app/api/dev/outbox/route";
import { getDb } from "@/db/client";
import { userTokens, users } from "@/db/schema";
import { browserSession, call, createUser, FROM_LOOPBACK } from "../support/api";
import { ageRateLimitHits, linkInLatestMail, passwordGrant, registerViaApi } from "../support/flows";

const verifyCall = (body: unknown) => call(verify, "POST", "/api/email-verification/verify", { body });
const resendCall = (body: unknown, headers: Record<string, string> = {}) =>
  call(resend, "POST", "/api/email-verification/resend", { body, headers });

async function registeredWithLink() {
  const { user, password } = await registerViaApi();
  const link = await linkInLatestMail(user.email);
  return { user, password, token: link.searchParams.get("token")!, linkEmail: link.searchParams.get("email")! };
}

async function verifiedAt(userId: string) {
  const db = await getDb();
  const [row] = await db.select({ at: users.emailVerifiedAt }).from(users).where(eq(users.id, userId));
  return row!.at;
}

async function mailCount(to: string) {
  return (await call(outbox, "GET", `/api/dev/outbox?to=${encodeURIComponent(to)}`, { headers: FROM_LOOPBACK })).json.messages
    .length as number;
}

describe("POST /api/email-verification/verify", () => {
  it("verifies the account with the token and e-mail from the link, after which sign-in works", async () => {
    const { user, password, token, linkEmail } = await registeredWithLink();
    expect(linkEmail).toBe(user.email);
    expect((await passwordGrant(user.email, password)).status).toBe(403);

    const res = await verifyCall({ token, email: linkEmail });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, message: "Email verified successfully! You can now log in." });
    expect(await verifiedAt(user.id)).toBeInstanceOf(Date);
    expect((await passwordGrant(user.email, password)).status).toBe(200);
  });

  it("accepts the e-mail in another case", async () => {
    const { user, token } = await registeredWithLink();
    expect((await verifyCall({ token, email: user.email.toUpperCase() })).status).toBe(200);
  });

  it("refuses a token the second time with 400: ALREADY_VERIFIED for the account it verified", async () => {
    const { user, token, linkEmail } = await registeredWithLink();
    expect((await verifyCall({ token, email: linkEmail })).status).toBe(200);
    const firstVerifiedAt = await verifiedAt(user.id);
    const again = await verifyCall({ token, email: linkEmail });
    expect(again.status).toBe(400);
    expect(again.json.error).toEqual({ code: "ALREADY_VERIFIED", message: "Your email is already verified!" });
    expect(await verifiedAt(user.id)).toEqual(firstVerifiedAt);
  });

  it("refuses a used token with 400 INVALID_TOKEN even when the account is unverified", async () => {
    const { user, token, linkEmail } = await registeredWithLink();
    expect((await verifyCall({ token, email: linkEmail })).status).toBe(200);
    // Only the token's used mark can refuse it now.
    const db = await getDb();
    await db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, user.id));
    const again = await verifyCall({ token, email: linkEmail });
    expect(again.status).toBe(400);
    expect(again.json.error).toEqual({
      code: "INVALID_TOKEN",
      message: "This verification link is invalid or has expired. Please request a new one.",
    });
    expect(await verifiedAt(user.id)).toBeNull();
  });

  it("refuses a token presented with another account's e-mail, and leaves it usable by its owner", async () => {
    const { user, token } = await registeredWithLink();
    const other = await createUser({ emailVerifiedAt: null });
    const res = await verifyCall({ token, email: other.email });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("INVALID_TOKEN");
    expect(await verifiedAt(user.id)).toBeNull();
    expect(await verifiedAt(other.id)).toBeNull();
    expect((await verifyCall({ token, email: user.email })).status).toBe(200);
  });

  it("refuses an expired token", async () => {
    const { user, token, linkEmail } = await registeredWithLink();
    const db = await getDb();
    await db
      .update(userTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(userTokens.userId, user.id));
    const res = await verifyCall({ token, email: linkEmail });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("INVALID_TOKEN");
    expect(await verifiedAt(user.id)).toBeNull();
  });

  it("gives the verification token a 24-hour life", async () => {
    const { user } = await registeredWithLink();
    const db = await getDb();
    const [row] = await db.select().from(userTokens).where(eq(userTokens.userId, user.id));
    const lifetime = row!.expiresAt.getTime() - row!.createdAt.getTime();
    expect(Math.abs(lifetime - 24 * 3600 * 1000)).toBeLessThan(60_000);
  });

  it("refuses a made-up token and a missing one", async () => {
    const { linkEmail } = await registeredWithLink();
    expect((await verifyCall({ token: "x".repeat(43), email: linkEmail })).json.error.code).toBe("INVALID_TOKEN");
    const missing = await verifyCall({ email: linkEmail });
    expect(missing.status).toBe(400);
    expect(missing.json.error.code).toBe("VALIDATION_ERROR");
  });

  it("stores only a hash of the token", async () => {
    const { user, token } = await registeredWithLink();
    const db = await getDb();
    const rows = await db.select().from(userTokens).where(eq(userTokens.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).not.toContain(token);
    expect(rows[0]!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("POST /api/email-verification/resend", () => {
  it("refuses a resend right after registering with 429, Retry-After and attemptsRemaining (60 s cooldown)", async () => {
    const { user } = await registerViaApi();
    const res = await resendCall({ email: user.email });
    expect(res.status).toBe(429);
    expect(res.json.error.code).toBe("RATE_LIMITED");
    expect(res.json.attemptsRemaining).toBe(4);
    const retryAfter = Number(res.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await mailCount(user.email)).toBe(1);
  });

  it("sends a new e-mail once the cooldown has passed, saying how many remain this hour", async () => {
    const { user } = await registerViaApi();
    await ageRateLimitHits(user.id, 61);
    const res = await resendCall({ email: user.email });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, attemptsRemaining: 3 });
    expect(await mailCount(user.email)).toBe(2);
  });

  it("sends a link that verifies the account, while the first link still works too", async () => {
    const { user } = await registerViaApi();
    const first = await linkInLatestMail(user.email);
    await ageRateLimitHits(user.id, 61);
    expect((await resendCall({ email: user.email })).status).toBe(200);
    const second = await linkInLatestMail(user.email);
    expect(second.searchParams.get("token")).not.toBe(first.searchParams.get("token"));
    expect((await verifyCall({ token: second.searchParams.get("token"), email: user.email })).status).toBe(200);
  });

  it("stops at 5 e-mails an hour, registration included, with the spec's message and attemptsRemaining 0", async () => {
    const { user } = await registerViaApi();
    const remaining: number[] = [];
    for (let i = 0; i < 4; i++) {
      await ageRateLimitHits(user.id, 61);
      const res = await resendCall({ email: user.email });
      expect(res.status).toBe(200);
      remaining.push(res.json.attemptsRemaining);
    }
    expect(remaining).toEqual([3, 2, 1, 0]);
    await ageRateLimitHits(user.id, 61);
    const res = await resendCall({ email: user.email });
    expect(res.status).toBe(429);
    expect(res.json.error.message).toBe("Maximum verification emails reached. Please wait 1 hour before trying again.");
    expect(res.json.attemptsRemaining).toBe(0);
    // The oldest e-mail (the registration one) leaves the hour in about 55 minutes.
    const retryAfter = Number(res.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(3000);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await mailCount(user.email)).toBe(5);
  });

  it("allows e-mails again once the hour has passed", async () => {
    const { user } = await registerViaApi();
    for (let i = 0; i < 4; i++) {
      await ageRateLimitHits(user.id, 61);
      expect((await resendCall({ email: user.email })).status).toBe(200);
    }
    await ageRateLimitHits(user.id, 3601);
    const res = await resendCall({ email: user.email });
    expect(res.status).toBe(200);
    expect(res.json.attemptsRemaining).toBe(4);
  });

  it("answers 404 'User not found. Please try registering again.' for an unknown e-mail", async () => {
    const res = await resendCall({ email: "nobody-here@example.com" });
    expect(res.status).toBe(404);
    expect(res.json.error).toEqual({ code: "USER_NOT_FOUND", message: "User not found. Please try registering again." });
  });

  it("limits signed-out requests from one address, so addresses cannot be probed in bulk", async () => {
    const headers = { "x-forwarded-for": `192.0.2.${Date.now() % 250}-resend` };
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      statuses.push(
        (await call(resend, "POST", "/api/email-verification/resend", { body: { email: `probe${i}@example.com` }, headers })).status,
      );
    }
    expect(statuses.slice(0, 20).every((status) => status === 404)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it("answers 400 ALREADY_VERIFIED 'Your email is already verified!' for a verified account, sending nothing", async () => {
    const user = await createUser();
    const res = await resendCall({ email: user.email });
    expect(res.status).toBe(400);
    expect(res.json.error).toEqual({ code: "ALREADY_VERIFIED", message: "Your email is already verified!" });
    expect(await mailCount(user.email)).toBe(0);
  });

  it("answers 401 without a session or an e-mail", async () => {
    const res = await resendCall(undefined);
    expect(res.status).toBe(401);
  });

  it("refuses an invalid e-mail with 400", async () => {
    const res = await resendCall({ email: "not-an-email" });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("VALIDATION_ERROR");
  });

  it("lets a signed-in caller resend with no body, given the X-CSRF-Token", async () => {
    const user = await createUser({ emailVerifiedAt: null });
    const session = await browserSession(user.id);
    const res = await resendCall(undefined, { cookie: session.cookie, "x-csrf-token": session.csrf });
    expect(res.status).toBe(200);
    expect(res.json.attemptsRemaining).toBe(4);
    expect(await mailCount(user.email)).toBe(1);
  });

  it("refuses a signed-in caller without X-CSRF-Token with 403 CSRF_VALIDATION_FAILED, sending nothing", async () => {
    const user = await createUser({ emailVerifiedAt: null });
    const session = await browserSession(user.id);
    const res = await resendCall(undefined, { cookie: session.cookie });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe("CSRF_VALIDATION_FAILED");
    const wrong = await resendCall(undefined, { cookie: session.cookie, "x-csrf-token": `${session.csrf.slice(1)}x` });
    expect(wrong.status).toBe(403);
    expect(await mailCount(user.email)).toBe(0);
  });

  it("resends for the signed-in caller, not for an e-mail named in the body", async () => {
    const me = await createUser({ emailVerifiedAt: null });
    const victim = await createUser({ emailVerifiedAt: null });
    const session = await browserSession(me.id);
    const res = await resendCall({ email: victim.email }, { cookie: session.cookie, "x-csrf-token": session.csrf });
    expect(res.status).toBe(200);
    expect(await mailCount(me.email)).toBe(1);
    expect(await mailCount(victim.email)).toBe(0);
  });
});
