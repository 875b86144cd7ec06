import { and, count, eq, isNull } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { POST as completeRegistration } from "@/app/api/auth/complete-registration/route";
import { POST as accept } from "@/app/api/auth/invitations/accept/route";
import { GET as lookup } from "@/app/api/auth/invitations/[token]/route";
import { POST as sendInvitation } from "@/app/api/auth/send-invitation/route";
import { GET as me } from "@/app/api/v2/auth/me/route";
import { getDb } from "@/db/client";
import { couples, emailOutbox, invitations, notifications, users } from "@/db/schema";
import { verifyEmail } from "@/lib/auth/email-verification";
import { hashToken } from "@/lib/auth/secrets";
import { markPartnerBComplete } from "@/lib/couples/service";
import { completeRegistration as completeRegistrationIn, joinWithAccount } from "@/lib/invitations/complete-registration";
import { invitationForPage } from "@/lib/invitations/page";
import type { ImageStorage } from "@/lib/storage";
import { LIMITS } from "@/lib/rate-limit";
import { browserSession, call, createUser } from "../support/api";
import { apiSession, bearer, latestMail, passwordGrant } from "../support/flows";

const JOIN_PASSWORD = "Sunset#Walk42";
const MSG = {
  invalid: "This invitation is invalid or has expired. Please request a new one.",
  expired: "This invitation has expired. Please ask your partner to send a new one.",
  validation: "Please check that all information is filled out correctly.",
  self: "You cannot invite yourself. Please enter your partner's email.",
  emailExists: "This email is already registered. Your partner should sign in instead.",
  alreadySent: "An invitation has already been sent to this email.",
};

let counter = 0;
const partnerEmail = (label = "partner") => `${label}${++counter}-${Date.now()}@example.com`;

/** Partner A: a verified account with a finished couple, signed in on a browser. */
async function partnerA(coupleName = "Maya & Theo") {
  const user = await createUser({ firstName: "Maya", lastName: "Okafor", occupation: "Architect" });
  const db = await getDb();
  const [couple] = await db
    .insert(couples)
    .values({ partner1Id: user.id, coupleName, status: "active", partnerAVerified: true, isVisible: true })
    .returning({ id: couples.id });
  const session = await browserSession(user.id);
  return { user, coupleId: couple!.id, headers: { cookie: session.cookie, "x-csrf-token": session.csrf } };
}

const invite = (headers: Record<string, string>, body: Record<string, unknown>) => call(sendInvitation, "POST", "/api/auth/send-invitation", { headers, body });

/** The secret in the newest invitation e-mail to an address. */
async function emailedToken(email: string): Promise<string> {
  const match = /\/register\?invite=([\w-]+)/.exec((await latestMail(email)).text);
  if (!match) throw new Error(`no invitation link in the e-mail to ${email}`);
  return match[1]!;
}

/** An invitation: `token` is the e-mailed secret (it proves the address), `shareToken` the one partner A is shown. */
async function invited(inviter: Awaited<ReturnType<typeof partnerA>>, email = partnerEmail()) {
  const res = await invite(inviter.headers, { partner_first_name: "Theo", partner_last_name: "Grant", partner_email: email });
  expect(res.status).toBe(200);
  return { email, token: await emailedToken(email), shareToken: res.json.invitation.invitation_token as string };
}

const load = (token: string, headers: Record<string, string> = {}) =>
  call(lookup, "GET", `/api/auth/invitations/${encodeURIComponent(token)}`, { params: { token }, headers });

const acceptWith = (token: string, overrides: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  call(accept, "POST", "/api/auth/invitations/accept", {
    body: { invitationToken: token, password: JOIN_PASSWORD, dateOfBirth: "1991-07-08", ...overrides },
    headers,
  });

const complete = (headers: Record<string, string>, body: Record<string, unknown>) =>
  call(completeRegistration, "POST", "/api/auth/complete-registration", { headers, body });

async function expire(token: string) {
  const db = await getDb();
  await db.update(invitations).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(invitations.tokenHash, hashToken(token)));
}

async function counts(coupleId: string) {
  const db = await getDb();
  const [{ value: userCount }] = (await db.select({ value: count() }).from(users)) as [{ value: number }];
  const [{ value: invitationCount }] = (await db.select({ value: count() }).from(invitations)) as [{ value: number }];
  const [{ value: mailCount }] = (await db.select({ value: count() }).from(emailOutbox)) as [{ value: number }];
  const [{ value: notificationCount }] = (await db.select({ value: count() }).from(notifications)) as [{ value: number }];
  const [couple] = await db.select({ partner2Id: couples.partner2Id }).from(couples).where(eq(couples.id, coupleId));
  return { userCount, invitationCount, mailCount, notificationCount, partner2Id: couple!.partner2Id };
}

const tampered = (token: string) => `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;

describe("POST /api/auth/send-invitation", () => {
  it("stores only the hashes of its two secrets, valid 7 days; e-mails the partner an absolute /register?invite= link and answers with the other, shareable one", async () => {
    const inviter = await partnerA();
    const email = partnerEmail();
    const res = await invite(inviter.headers, { partner_first_name: " Theo ", partner_last_name: "Grant", partner_email: email.toUpperCase() });
    expect(res.status).toBe(200);
    const { invitation } = res.json;
    expect(invitation).toMatchObject({ partner_email: email, partner_first_name: "Theo", partner_last_name: "Grant" });
    expect(invitation.invitation_token).toMatch(/^[\w-]{43}$/);
    expect(Math.abs(new Date(invitation.expires_at).getTime() - Date.now() - 7 * 86_400_000)).toBeLessThan(60_000);

    const emailed = await emailedToken(email);
    expect(emailed).toMatch(/^[\w-]{43}$/);
    expect(emailed).not.toBe(invitation.invitation_token);
    const db = await getDb();
    const [row] = await db.select().from(invitations).where(eq(invitations.coupleId, inviter.coupleId));
    expect(row).toMatchObject({
      inviterId: inviter.user.id,
      partnerEmail: email,
      tokenHash: hashToken(emailed),
      shareTokenHash: hashToken(invitation.invitation_token),
      acceptedAt: null,
      revokedAt: null,
    });
    expect(JSON.stringify(row)).not.toContain(invitation.invitation_token);
    expect(JSON.stringify(row)).not.toContain(emailed);

    const mail = await latestMail(email);
    expect(mail.text).toContain(`http://localhost:3000/register?invite=${emailed}`);
    expect(mail.text).not.toContain(invitation.invitation_token);
    expect(mail.text).toContain("Hi Theo,");
    expect(mail.text).toContain("Maya");
    expect(mail.text).toContain("7 days");
  });

  it("works for an API client with a bearer token, without a CSRF token", async () => {
    const inviter = await partnerA();
    const session = await apiSession(inviter.user.email);
    const res = await invite(bearer(session.access_token), { partner_first_name: "Theo", partner_last_name: "Grant", partner_email: partnerEmail() });
    expect(res.status).toBe(200);
  });

  it("refuses a cookie call without the CSRF token and writes nothing", async () => {
    const inviter = await partnerA();
    const before = await counts(inviter.coupleId);
    const res = await invite({ cookie: inviter.headers.cookie }, { partner_first_name: "Theo", partner_last_name: "Grant", partner_email: partnerEmail() });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe("CSRF_VALIDATION_FAILED");
    expect(await counts(inviter.coupleId)).toEqual(before);
  });

  it("refuses a signed-out caller", async () => {
    const res = await invite({}, { partner_first_name: "Theo", partner_last_name: "Grant", partner_email: partnerEmail() });
    expect(res.status).toBe(401);
  });

  it("names every missing field with the spec's messages and writes nothing", async () => {
    const inviter = await partnerA();
    const before = await counts(inviter.coupleId);
    const res = await invite(inviter.headers, { partner_first_name: " ", partner_email: "nope" });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("VALIDATION_ERROR");
    expect(res.json.error.fields).toEqual({
      partner_first_name: "Please enter your partner's first name",
      partner_last_name: "Please enter your partner's last name",
      partner_email: "Please enter a valid email address",
    });
    expect(await counts(inviter.coupleId)).toEqual(before);
  });

  it("refuses a self-invitation, whatever the case of the address", async () => {
    const inviter = await partnerA();
    const before = await counts(inviter.coupleId);
    const res = await invite(inviter.headers, { partner_first_name: "Me", partner_last_name: "Again", partner_email: ` ${inviter.user.email.toUpperCase()} ` });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: "VALIDATION_ERROR", message: MSG.self, fields: { partner_email: MSG.self } });
    expect(await counts(inviter.coupleId)).toEqual(before);
  });

  it("refuses an address that already has an account", async () => {
    const inviter = await partnerA();
    const other = await createUser();
    const before = await counts(inviter.coupleId);
    const res = await invite(inviter.headers, { partner_first_name: "Theo", partner_last_name: "Grant", partner_email: other.email });
    expect(res.status).toBe(409);
    expect(res.json.error).toEqual({ code: "EMAIL_EXISTS", message: MSG.emailExists });
    expect(await counts(inviter.coupleId)).toEqual(before);
  });

  it("refuses a second invitation to the same e-mail while the first is open", async () => {
    const inviter = await partnerA();
    const { email } = await invited(inviter);
    const before = await counts(inviter.coupleId);
    const res = await invite(inviter.headers, { partner_first_name: "Theo", partner_last_name: "Grant", partner_email: email.toUpperCase() });
    expect(res.status).toBe(409);
    expect(res.json.error).toEqual({ code: "INVITATION_ALREADY_SENT", message: MSG.alreadySent });
    expect(await counts(inviter.coupleId)).toEqual(before);
  });

  it("replaces an expired invitation: the old one is revoked and its link stops working", async () => {
    const inviter = await partnerA();
    const first = await invited(inviter);
    await expire(first.token);
    const second = await invited(inviter, first.email);
    expect(second.token).not.toBe(first.token);

    const db = await getDb();
    const rows = await db.select({ tokenHash: invitations.tokenHash, revokedAt: invitations.revokedAt }).from(invitations).where(eq(invitations.coupleId, inviter.coupleId));
    expect(rows).toHaveLength(2);
    expect(rows.find((row) => row.tokenHash === hashToken(first.token))?.revokedAt).not.toBeNull();
    expect(rows.find((row) => row.tokenHash === hashToken(second.token))?.revokedAt).toBeNull();
    expect((await load(first.token)).json.error.code).toBe("INVALID_INVITATION");
    expect((await load(second.token)).status).toBe(200);
  });

  it("refuses a user without a couple", async () => {
    const user = await createUser();
    const session = await browserSession(user.id);
    const res = await invite({ cookie: session.cookie, "x-csrf-token": session.csrf }, { partner_first_name: "Theo", partner_last_name: "Grant", partner_email: partnerEmail() });
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("NO_COUPLE");
  });

  it("refuses a third partner: neither partner of a full couple can invite", async () => {
    const inviter = await partnerA();
    const { token } = await invited(inviter);
    const joined = await acceptWith(token);
    expect(joined.status).toBe(200);

    const again = await invite(inviter.headers, { partner_first_name: "Third", partner_last_name: "Wheel", partner_email: partnerEmail("third") });
    expect(again.status).toBe(409);
    expect(again.json.error).toEqual({ code: "COUPLE_FULL", message: "Your couple already has two partners." });

    const partnerB = await apiSession(joined.json.user.email, JOIN_PASSWORD);
    const fromB = await invite(bearer(partnerB.access_token), { partner_first_name: "Third", partner_last_name: "Wheel", partner_email: partnerEmail("third") });
    expect(fromB.json.error.code).toBe("COUPLE_FULL");
  });

  it("limits the invitations one account sends per hour", async () => {
    const inviter = await partnerA();
    for (let i = 0; i < LIMITS.invitationsPerInviter.limit; i++) await invited(inviter);
    const res = await invite(inviter.headers, { partner_first_name: "Theo", partner_last_name: "Grant", partner_email: partnerEmail() });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("counts refused attempts too, so whether addresses have accounts cannot be probed without limit", async () => {
    const inviter = await partnerA();
    const taken = await createUser();
    for (let i = 0; i < LIMITS.invitationsPerInviter.limit; i++) {
      const res = await invite(inviter.headers, { partner_first_name: "Theo", partner_last_name: "Grant", partner_email: taken.email });
      expect(res.json.error.code).toBe("EMAIL_EXISTS");
    }
    const probe = await invite(inviter.headers, { partner_first_name: "Theo", partner_last_name: "Grant", partner_email: taken.email });
    expect(probe.status).toBe(429);
    expect(probe.json.error.code).toBe("RATE_LIMITED");
    const fresh = await invite(inviter.headers, { partner_first_name: "Theo", partner_last_name: "Grant", partner_email: partnerEmail() });
    expect(fresh.status).toBe(429);
  });

  it("holds the limit under parallel sends", async () => {
    const inviter = await partnerA();
    const taken = await createUser();
    const extra = 4;
    const results = await Promise.all(
      Array.from({ length: LIMITS.invitationsPerInviter.limit + extra }, () =>
        invite(inviter.headers, { partner_first_name: "Theo", partner_last_name: "Grant", partner_email: taken.email }),
      ),
    );
    const codes = results.map((res) => res.json.error.code);
    expect(codes.filter((code) => code === "EMAIL_EXISTS")).toHaveLength(LIMITS.invitationsPerInviter.limit);
    expect(codes.filter((code) => code === "RATE_LIMITED")).toHaveLength(extra);
  });
});

describe("GET /api/auth/invitations/{token}", () => {
  it("shows an open invitation with the inviter's name and the couple's name", async () => {
    const inviter = await partnerA("Maya & Theo");
    const { token, email } = await invited(inviter);
    const res = await load(token);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      success: true,
      invitation: {
        partner_email: email,
        partner_first_name: "Theo",
        partner_last_name: "Grant",
        inviter_first_name: "Maya",
        inviter_name: "Maya Okafor",
        couple_name: "Maya & Theo",
        expires_at: expect.any(String),
      },
    });
  });

  it("answers INVALID_INVITATION for unknown, tampered and used tokens, INVITATION_EXPIRED for expired ones", async () => {
    const inviter = await partnerA();
    const { token } = await invited(inviter);
    for (const bad of ["unknown-token", tampered(token), "x".repeat(500)]) {
      const res = await load(bad);
      expect(res.status).toBe(400);
      expect(res.json.error).toEqual({ code: "INVALID_INVITATION", message: MSG.invalid });
    }
    await expire(token);
    const expired = await load(token);
    expect(expired.status).toBe(410);
    expect(expired.json.error).toEqual({ code: "INVITATION_EXPIRED", message: MSG.expired });

    const other = await invited(await partnerA());
    expect((await acceptWith(other.token)).status).toBe(200);
    expect((await load(other.token)).json.error).toEqual({ code: "INVALID_INVITATION", message: MSG.invalid });
  });

  it("limits failed look-ups per address", async () => {
    const headers = { "x-forwarded-for": "198.51.100.77" };
    for (let i = 0; i < LIMITS.invitationLookupFailuresPerAddress.limit; i++) expect((await load(`guess-${i}`, headers)).status).toBe(400);
    const res = await load("guess-last", headers);
    expect(res.status).toBe(429);
    expect(res.json.error.code).toBe("RATE_LIMITED");
  });
});

describe("POST /api/auth/invitations/accept", () => {
  it("creates partner B's verified account in the couple, signs it in, and notifies partner A", async () => {
    const inviter = await partnerA();
    const { token, email } = await invited(inviter);
    const res = await acceptWith(token);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      success: true,
      autoLogin: { required: false },
      verificationRequired: false,
      session: { access_token: expect.any(String), refresh_token: expect.any(String), expires_at: expect.any(Number) },
      user: { id: expect.any(String), email },
      couple: { id: inviter.coupleId },
    });
    expect(JSON.stringify(res.json)).not.toContain(JOIN_PASSWORD);
    // The e-mailed link proved the address: no verification e-mail follows.
    expect((await latestMail(email)).subject).not.toBe("Verify your email address");

    const db = await getDb();
    const [user] = await db.select().from(users).where(eq(users.email, email));
    expect(user).toMatchObject({ firstName: "Theo", lastName: "Grant", dateOfBirth: "1991-07-08", registrationType: "partner_invitation" });
    expect(user!.emailVerifiedAt).not.toBeNull();
    expect((await counts(inviter.coupleId)).partner2Id).toBe(user!.id);
    const [row] = await db.select().from(invitations).where(eq(invitations.tokenHash, hashToken(token)));
    expect(row!.acceptedAt).not.toBeNull();

    const [note] = await db.select().from(notifications).where(eq(notifications.userId, inviter.user.id));
    expect(note).toMatchObject({ type: "partner_joined", title: "Theo joined your couple!", actorUserId: user!.id, actorCoupleId: inviter.coupleId, isRead: false });

    // The session works, and the new partner can sign in with the chosen password.
    // Partner B's onboarding (step 1) is still ahead: the current-user call says so with 409 and the user.
    const current = await call(me, "GET", "/api/v2/auth/me", { headers: bearer(res.json.session.access_token) });
    expect(current.status).toBe(409);
    expect(current.json.user).toMatchObject({ userId: user!.id, coupleId: inviter.coupleId, partner2Id: user!.id });
    expect((await passwordGrant(email, JOIN_PASSWORD)).status).toBe(200);
  });

  it("refuses weak passwords and minors with the spec's validation message, and writes nothing", async () => {
    const inviter = await partnerA();
    const { token } = await invited(inviter);
    const before = await counts(inviter.coupleId);
    const res = await acceptWith(token, { password: "weak", dateOfBirth: `${new Date().getUTCFullYear() - 17}-01-01` });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({
      code: "VALIDATION_ERROR",
      message: MSG.validation,
      fields: { password: "Password must be at least 8 characters", dateOfBirth: "You must be at least 18 years old" },
    });
    expect(await counts(inviter.coupleId)).toEqual(before);
  });

  it("refuses expired, used, tampered and unknown tokens with the spec's messages, and writes nothing", async () => {
    const inviter = await partnerA();
    const expiring = await invited(inviter);
    await expire(expiring.token);
    const before = await counts(inviter.coupleId);
    const expired = await acceptWith(expiring.token);
    expect(expired.status).toBe(410);
    expect(expired.json.error).toEqual({ code: "INVITATION_EXPIRED", message: MSG.expired });
    for (const bad of [tampered(expiring.token), "never-issued"]) {
      const res = await acceptWith(bad);
      expect(res.status).toBe(400);
      expect(res.json.error).toEqual({ code: "INVALID_INVITATION", message: MSG.invalid });
    }
    expect(await counts(inviter.coupleId)).toEqual(before);

    const other = await partnerA();
    const open = await invited(other);
    expect((await acceptWith(open.token)).status).toBe(200);
    const afterFirst = await counts(other.coupleId);
    const reused = await acceptWith(open.token, { password: "Another#Pass9" });
    expect(reused.json.error).toEqual({ code: "INVALID_INVITATION", message: MSG.invalid });
    expect(await counts(other.coupleId)).toEqual(afterFirst);
  });

  it("lets exactly one of two simultaneous accepts of one link through", async () => {
    const inviter = await partnerA();
    const { token, email } = await invited(inviter);
    const before = await counts(inviter.coupleId);
    const results = await Promise.all([acceptWith(token, { password: "First#Pass1" }), acceptWith(token, { password: "Second#Pass2" })]);
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    // The loser finds the couple full, or (when it came after the winner committed) the link used.
    const loser = results.find((r) => r.status !== 200)!;
    expect(["COUPLE_FULL", "INVALID_INVITATION"]).toContain(loser.json.error.code);
    const after = await counts(inviter.coupleId);
    expect(after.userCount).toBe(before.userCount + 1);
    const db = await getDb();
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
    expect(after.partner2Id).toBe(user!.id);
  });

  it("keeps a couple at two partners when two different invitees accept at once: the other gets COUPLE_FULL and no account", async () => {
    const inviter = await partnerA();
    const first = await invited(inviter);
    const second = await invited(inviter);
    const before = await counts(inviter.coupleId);
    const results = await Promise.all([acceptWith(first.token, { password: "First#Pass1" }), acceptWith(second.token, { password: "Second#Pass2" })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const loser = results.find((r) => r.status === 409)!;
    expect(loser.json.error).toEqual({ code: "COUPLE_FULL", message: "This couple already has two partners, so the invitation can no longer be used." });

    const after = await counts(inviter.coupleId);
    expect(after.userCount).toBe(before.userCount + 1);
    expect(after.notificationCount).toBe(before.notificationCount + 1);
    const winner = results.find((r) => r.status === 200)!;
    expect(after.partner2Id).toBe(winner.json.user.id);
    const db = await getDb();
    const open = await db
      .select({ id: invitations.id })
      .from(invitations)
      .where(and(eq(invitations.coupleId, inviter.coupleId), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)));
    expect(open).toHaveLength(0);
  });

  it("revokes the couple's other open invitations once a partner joins", async () => {
    const inviter = await partnerA();
    const first = await invited(inviter);
    const second = await invited(inviter);
    expect((await acceptWith(first.token)).status).toBe(200);
    expect((await load(second.token)).json.error.code).toBe("COUPLE_FULL");
    expect((await acceptWith(second.token)).json.error.code).toBe("COUPLE_FULL");
    const db = await getDb();
    const [row] = await db.select({ revokedAt: invitations.revokedAt }).from(invitations).where(eq(invitations.tokenHash, hashToken(second.token)));
    expect(row!.revokedAt).not.toBeNull();
  });

  it("refuses a stale invitation of a couple that is already full, leaving no account", async () => {
    const inviter = await partnerA();
    const partnerB = await createUser();
    const db = await getDb();
    await db.update(couples).set({ partner2Id: partnerB.id }).where(eq(couples.id, inviter.coupleId));
    const token = "stale-invitation-token-of-a-full-couple";
    await db.insert(invitations).values({
      coupleId: inviter.coupleId,
      inviterId: inviter.user.id,
      partnerEmail: partnerEmail("stale"),
      partnerFirstName: "Third",
      partnerLastName: "Wheel",
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    const before = await counts(inviter.coupleId);
    const res = await acceptWith(token);
    expect(res.status).toBe(409);
    expect(res.json.error.code).toBe("COUPLE_FULL");
    expect(await counts(inviter.coupleId)).toEqual(before);
  });

  it("refuses when the invited address got an account of its own meanwhile", async () => {
    const inviter = await partnerA();
    const { token, email } = await invited(inviter);
    await createUser({ email });
    const before = await counts(inviter.coupleId);
    const res = await acceptWith(token);
    expect(res.status).toBe(409);
    expect(res.json.error).toEqual({ code: "EMAIL_EXISTS", message: "An account with this email already exists. Please sign in instead." });
    expect(await counts(inviter.coupleId)).toEqual(before);
  });

  it("limits accept attempts per address, so tokens cannot be brute-forced", async () => {
    const headers = { "x-forwarded-for": "198.51.100.91" };
    for (let i = 0; i < LIMITS.invitationAcceptPerAddress.limit; i++) expect((await acceptWith(`guess-${i}`, {}, headers)).status).toBe(400);
    const res = await acceptWith("guess-last", {}, headers);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("answers 400, not 500, to a body that is not JSON", async () => {
    const res = await call(accept, "POST", "/api/auth/invitations/accept", { rawBody: "[1,2", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("VALIDATION_ERROR");
  });
});

describe("the shareable link (shown to partner A)", () => {
  const coupleFlags = async (coupleId: string) => {
    const db = await getDb();
    const [row] = await db.select({ b: couples.partnerBVerified, verified: couples.isVerified }).from(couples).where(eq(couples.id, coupleId));
    return row;
  };

  it("opens the same invitation as the e-mailed link", async () => {
    const inviter = await partnerA();
    const { token, shareToken } = await invited(inviter);
    const viaShare = await load(shareToken);
    expect(viaShare.status).toBe(200);
    expect(viaShare.json).toEqual((await load(token)).json);
  });

  it("makes an unverified account in the couple: no session, a verification e-mail to the invited address, sign-in only once verified", async () => {
    const inviter = await partnerA();
    const { shareToken, email } = await invited(inviter);
    const before = await counts(inviter.coupleId);
    const res = await acceptWith(shareToken);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      success: true,
      autoLogin: { required: false },
      verificationRequired: true,
      user: { id: expect.any(String), email },
      couple: { id: inviter.coupleId },
    });

    const db = await getDb();
    const [user] = await db.select({ id: users.id, emailVerifiedAt: users.emailVerifiedAt, registrationType: users.registrationType }).from(users).where(eq(users.email, email));
    expect(user).toMatchObject({ emailVerifiedAt: null, registrationType: "partner_invitation" });
    const after = await counts(inviter.coupleId);
    expect(after).toMatchObject({ userCount: before.userCount + 1, mailCount: before.mailCount + 1, notificationCount: before.notificationCount + 1, partner2Id: user!.id });

    const mail = await latestMail(email);
    expect(mail.subject).toBe("Verify your email address");
    const refused = await passwordGrant(email, JOIN_PASSWORD);
    expect(refused.json.error.code).toBe("EMAIL_NOT_CONFIRMED");

    const link = new URL(/https?:\/\/\S+\/verify-email\?\S+/.exec(mail.text)![0]);
    await verifyEmail(db, { token: link.searchParams.get("token")!, email });
    expect((await passwordGrant(email, JOIN_PASSWORD)).status).toBe(200);
  });

  it("cannot give partner A a 'Verified Couple' by accepting their own shareable link", async () => {
    const inviter = await partnerA();
    const { shareToken, email } = await invited(inviter, partnerEmail("not-really-partner-b"));
    const res = await acceptWith(shareToken);
    expect(res.status).toBe(200);
    expect(res.json.session).toBeUndefined();
    // The account cannot sign in, so it can never reach the set-up that completes partner B's part.
    expect((await passwordGrant(email, JOIN_PASSWORD)).json.error.code).toBe("EMAIL_NOT_CONFIRMED");
    expect(await coupleFlags(inviter.coupleId)).toEqual({ b: false, verified: false });
  });

  it("cannot lock partner B out: the e-mailed link, used after the shareable one, replaces the unverified account with B's verified one", async () => {
    const inviter = await partnerA();
    const { token, shareToken, email } = await invited(inviter);
    const claim = await acceptWith(shareToken, { password: "Link#Holder99" });
    expect(claim.status).toBe(200);
    const claimantId = claim.json.user.id as string;
    expect((await load(token)).status).toBe(200);

    const res = await acceptWith(token);
    expect(res.status).toBe(200);
    expect(res.json.session).toBeDefined();
    const db = await getDb();
    const [b] = await db.select({ id: users.id, emailVerifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.email, email));
    expect(b!.id).not.toBe(claimantId);
    expect(b!.emailVerifiedAt).not.toBeNull();
    expect(await db.select({ id: users.id }).from(users).where(eq(users.id, claimantId))).toEqual([]);
    expect((await counts(inviter.coupleId)).partner2Id).toBe(b!.id);
    expect((await passwordGrant(email, JOIN_PASSWORD)).status).toBe(200);
    expect((await passwordGrant(email, "Link#Holder99")).status).not.toBe(200);
    // The shareable link stays used up.
    expect((await acceptWith(shareToken)).json.error.code).toBe("INVALID_INVITATION");
  });

  it("the e-mailed link also replaces an unverified account registered on its own at the invited address", async () => {
    const inviter = await partnerA();
    const { token, email } = await invited(inviter);
    const squatter = await createUser({ email, emailVerifiedAt: null });
    const res = await acceptWith(token);
    expect(res.status).toBe(200);
    const db = await getDb();
    const [b] = await db.select({ id: users.id, emailVerifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.email, email));
    expect(b!.id).not.toBe(squatter.id);
    expect(b!.emailVerifiedAt).not.toBeNull();
    expect((await counts(inviter.coupleId)).partner2Id).toBe(b!.id);
  });

  it("does not replace a verified partner 2: the e-mailed link is then used up", async () => {
    const inviter = await partnerA();
    const { token, shareToken, email } = await invited(inviter);
    const claim = await acceptWith(shareToken);
    const db = await getDb();
    await db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, claim.json.user.id));
    expect((await load(token)).json.error.code).toBe("INVALID_INVITATION");
    expect((await acceptWith(token)).json.error.code).toBe("INVALID_INVITATION");
    expect((await counts(inviter.coupleId)).partner2Id).toBe(claim.json.user.id);
    expect((await db.select({ id: users.id }).from(users).where(eq(users.email, email))).length).toBe(1);
  });

  it("joins an existing account to the couple without verifying its address; only the e-mailed link does", async () => {
    const details = { firstName: "Theo", lastName: "Grant", dateOfBirth: "1990-02-03", occupation: "Chef" };
    const db = await getDb();
    const verifiedOf = async (id: string) => (await db.select({ at: users.emailVerifiedAt }).from(users).where(eq(users.id, id)))[0]!.at;

    const viaShare = await partnerA();
    const shared = await invited(viaShare);
    const unproven = await createUser({ email: shared.email, emailVerifiedAt: null });
    const joined = await completeRegistrationIn(db, unproven.id, { ...details, invitationToken: shared.shareToken }, { clientAddress: "198.51.100.32" });
    expect(joined.couple?.id).toBe(viaShare.coupleId);
    expect(await verifiedOf(unproven.id)).toBeNull();

    const viaMail = await partnerA();
    const mailed = await invited(viaMail);
    const proven = await createUser({ email: mailed.email, emailVerifiedAt: null });
    await completeRegistrationIn(db, proven.id, { ...details, invitationToken: mailed.token }, { clientAddress: "198.51.100.33" });
    expect(await verifiedOf(proven.id)).not.toBeNull();
    expect(await coupleFlags(viaMail.coupleId)).toEqual({ b: true, verified: true });
  });
});

describe("POST /api/auth/complete-registration", () => {
  const details = { firstName: "Theo", lastName: "Grant", dateOfBirth: "1990-02-03" };

  it("saves names, birth date and occupation of an account without a couple", async () => {
    const user = await createUser();
    const session = await browserSession(user.id);
    const res = await complete({ cookie: session.cookie, "x-csrf-token": session.csrf }, { ...details, occupation: " Chef " });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      success: true,
      data: {
        user: { id: user.id, email: user.email, ...details, occupation: "Chef", avatarUrl: null },
        couple: null,
        isExisting: false,
      },
    });
  });

  it("lets partner B finish set-up, reporting the couple and its status", async () => {
    const inviter = await partnerA();
    const { token, email } = await invited(inviter);
    await acceptWith(token);
    const session = await apiSession(email, JOIN_PASSWORD);
    const res = await complete(bearer(session.access_token), { ...details, occupation: "" });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ couple: { id: inviter.coupleId, status: "active", couple_name: "Maya & Theo" }, isExisting: true });
    expect(res.json.data.user.occupation).toBeNull();
  });

  it("marks partner B's part done by one rule: partner B with a complete profile (names, occupation, couple name)", async () => {
    const inviter = await partnerA();
    const { token } = await invited(inviter);
    const accepted = await acceptWith(token);
    const partnerB = accepted.json.user.id as string;
    const db = await getDb();
    const flags = async () =>
      (await db.select({ b: couples.partnerBVerified, verified: couples.isVerified }).from(couples).where(eq(couples.id, inviter.coupleId)))[0];
    // Whoever calls it: without an occupation partner B's part is not done, but they are partner B.
    expect(await db.transaction((tx) => markPartnerBComplete(tx, partnerB))).toBe(true);
    expect(await flags()).toEqual({ b: false, verified: false });
    expect(await db.transaction((tx) => markPartnerBComplete(tx, inviter.user.id))).toBe(false);
    await db.update(users).set({ occupation: "Chef" }).where(eq(users.id, partnerB));
    expect(await db.transaction((tx) => markPartnerBComplete(tx, partnerB))).toBe(true);
    expect(await flags()).toEqual({ b: true, verified: true });
  });

  it("verifies the couple when partner B's set-up completes the profile (occupation given), not before", async () => {
    const inviter = await partnerA();
    const { token, email } = await invited(inviter);
    await acceptWith(token);
    const session = await apiSession(email, JOIN_PASSWORD);
    const db = await getDb();
    const flags = async () =>
      (await db.select({ b: couples.partnerBVerified, verified: couples.isVerified }).from(couples).where(eq(couples.id, inviter.coupleId)))[0];
    await complete(bearer(session.access_token), { ...details, occupation: "" });
    expect(await flags()).toEqual({ b: false, verified: false });
    const res = await complete(bearer(session.access_token), { ...details, occupation: "Chef" });
    expect(res.status).toBe(200);
    expect(await flags()).toEqual({ b: true, verified: true });
  });

  it("with an invitation token, attaches the signed-in account of the invited address as partner 2", async () => {
    const inviter = await partnerA();
    const { token, email } = await invited(inviter);
    // The invited partner registered on their own after the invitation was sent.
    const account = await createUser({ email });
    const session = await browserSession(account.id);
    const res = await complete({ cookie: session.cookie, "x-csrf-token": session.csrf }, { ...details, invitationToken: token });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ couple: { id: inviter.coupleId, partner2_id: account.id }, isExisting: false });
    const db = await getDb();
    const [user] = await db.select({ registrationType: users.registrationType }).from(users).where(eq(users.id, account.id));
    expect(user!.registrationType).toBe("partner_invitation");
    const [note] = await db.select().from(notifications).where(eq(notifications.userId, inviter.user.id));
    expect(note!.title).toBe("Theo joined your couple!");
    expect((await load(token)).json.error.code).toBe("INVALID_INVITATION");
  });

  it("refuses a token sent to another address, or an account that already has a couple, and writes nothing", async () => {
    const inviter = await partnerA();
    const { token } = await invited(inviter);
    const stranger = await createUser();
    const strangerSession = await browserSession(stranger.id);
    const before = await counts(inviter.coupleId);
    const res = await complete({ cookie: strangerSession.cookie, "x-csrf-token": strangerSession.csrf }, { ...details, invitationToken: token });
    expect(res.status).toBe(403);
    expect(res.json.error).toEqual({ code: "FORBIDDEN", message: "This invitation was sent to a different email address." });
    const db = await getDb();
    const [unchanged] = await db.select({ firstName: users.firstName }).from(users).where(eq(users.id, stranger.id));
    expect(unchanged!.firstName).toBe("Ada");

    const other = await partnerA();
    const otherInvite = await invited(inviter, other.user.email.replace("@", "+x@"));
    await db.update(users).set({ email: otherInvite.email }).where(eq(users.id, other.user.id));
    const inCouple = await complete(other.headers, { ...details, invitationToken: otherInvite.token });
    expect(inCouple.status).toBe(409);
    expect(inCouple.json.error.code).toBe("COUPLE_EXISTS");
    expect((await counts(inviter.coupleId)).partner2Id).toBe(before.partner2Id);
  });

  it("refuses expired and unknown tokens with the spec's messages", async () => {
    const inviter = await partnerA();
    const { token, email } = await invited(inviter);
    const account = await createUser({ email });
    const session = await browserSession(account.id);
    const headers = { cookie: session.cookie, "x-csrf-token": session.csrf };
    expect((await complete(headers, { ...details, invitationToken: "nope" })).json.error).toEqual({ code: "INVALID_INVITATION", message: MSG.invalid });
    await expire(token);
    const expired = await complete(headers, { ...details, invitationToken: token });
    expect(expired.status).toBe(410);
    expect(expired.json.error).toEqual({ code: "INVITATION_EXPIRED", message: MSG.expired });
  });

  it("refuses bad input, a missing CSRF token and a signed-out caller", async () => {
    const user = await createUser();
    const session = await browserSession(user.id);
    const invalid = await complete({ cookie: session.cookie, "x-csrf-token": session.csrf }, { firstName: "", lastName: "x".repeat(51), dateOfBirth: "" });
    expect(invalid.status).toBe(400);
    expect(invalid.json.error).toMatchObject({
      code: "VALIDATION_ERROR",
      message: MSG.validation,
      fields: { firstName: "First name is required", lastName: "Last name must be no more than 50 characters", dateOfBirth: "Please enter your date of birth" },
    });
    const noCsrf = await complete({ cookie: session.cookie }, details);
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.json.error.code).toBe("CSRF_VALIDATION_FAILED");
    expect((await complete({}, details)).status).toBe(401);
    const db = await getDb();
    const [unchanged] = await db.select({ firstName: users.firstName }).from(users).where(eq(users.id, user.id));
    expect(unchanged!.firstName).toBe("Ada");
  });

  it("joins the signed-in account of the invited address as it is, with either link, and tells the join page who is signed in", async () => {
    const inviter = await partnerA();
    const { token, shareToken, email } = await invited(inviter);
    const account = await createUser({ email, firstName: "Theodore", lastName: "Grant-Lee", dateOfBirth: "1988-04-09" });
    const stranger = await createUser();
    const context = { clientAddress: "198.51.100.41" };
    for (const link of [token, shareToken]) {
      expect(await invitationForPage(link, { ...context, userId: account.id })).toMatchObject({ ok: true, signedInAsInvitee: true });
      expect(await invitationForPage(link, { ...context, userId: stranger.id })).toMatchObject({ ok: true, signedInAsInvitee: false });
      expect(await invitationForPage(link, { ...context, userId: null })).toMatchObject({ ok: true, signedInAsInvitee: false });
    }

    const db = await getDb();
    const joined = await joinWithAccount(db, account.id, shareToken, context);
    expect(joined).toMatchObject({
      user: { id: account.id, firstName: "Theodore", lastName: "Grant-Lee", dateOfBirth: "1988-04-09" },
      couple: { id: inviter.coupleId, partner2_id: account.id },
      isExisting: false,
    });
    const [note] = await db.select({ title: notifications.title }).from(notifications).where(eq(notifications.userId, inviter.user.id));
    expect(note!.title).toBe("Theodore joined your couple!");
    expect(await invitationForPage(token, { ...context, userId: account.id })).toMatchObject({ ok: false, code: "INVALID_INVITATION" });
  });

  describe("with a profile photo (partner setup)", () => {
    /** Storage in memory, so the test sees what was kept and what was removed. */
    function memoryStorage() {
      const objects = new Map<string, Buffer>();
      const storage: ImageStorage = {
        put: async (key, buffer) => {
          objects.set(key, buffer);
          return { url: `/api/images/${key}` };
        },
        delete: async (key) => void objects.delete(key),
      };
      return { storage, objects };
    }

    it("stores the photo as the avatar", async () => {
      const user = await createUser();
      const { storage, objects } = memoryStorage();
      const avatar = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#884466" } }).jpeg({ quality: 90 }).toBuffer();
      const db = await getDb();
      const result = await completeRegistrationIn(db, user.id, details, { clientAddress: "198.51.100.5", avatar, storage });
      expect(objects.size).toBe(1);
      expect(result.user.avatarUrl).toBe(`/api/images/${[...objects.keys()][0]}`);
    });

    it("removes the photo it replaces once the new one is saved", async () => {
      const user = await createUser();
      const { storage, objects } = memoryStorage();
      const avatar = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#884466" } }).jpeg().toBuffer();
      const db = await getDb();
      const first = await completeRegistrationIn(db, user.id, details, { clientAddress: "198.51.100.5", avatar, storage });
      const second = await completeRegistrationIn(db, user.id, details, { clientAddress: "198.51.100.5", avatar, storage });
      expect(second.user.avatarUrl).not.toBe(first.user.avatarUrl);
      expect([...objects.keys()].map((key) => `/api/images/${key}`)).toEqual([second.user.avatarUrl]);
    });

    it("refuses a file that is not an image, and a failed write leaves no stored file behind", async () => {
      const user = await createUser();
      const { storage, objects } = memoryStorage();
      const db = await getDb();
      await expect(completeRegistrationIn(db, user.id, details, { clientAddress: "198.51.100.5", avatar: new TextEncoder().encode("not an image"), storage })).rejects.toMatchObject({
        code: "VALIDATION_ERROR",
        message: "Please select a valid image file (JPEG, PNG, or WebP)",
      });
      // The photo is stored before the transaction, which then refuses a link sent to another address.
      const { token } = await invited(await partnerA());
      const avatar = await sharp({ create: { width: 50, height: 50, channels: 3, background: "#884466" } }).png().toBuffer();
      await expect(completeRegistrationIn(db, user.id, { ...details, invitationToken: token }, { clientAddress: "198.51.100.6", avatar, storage })).rejects.toMatchObject({
        code: "FORBIDDEN",
      });
      expect(objects.size).toBe(0);
      const [row] = await db.select({ avatarUrl: users.avatarUrl, firstName: users.firstName }).from(users).where(eq(users.id, user.id));
      expect(row).toEqual({ avatarUrl: null, firstName: "Ada" });
    });
  });
});
