import { and, arrayContains, eq, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as accept } from "@/app/api/auth/invitations/accept/route";
import { POST as verify } from "@/app/api/email-verification/verify/route";
import { GET as me } from "@/app/api/v2/auth/me/route";
import { getDb } from "@/db/client";
import { couples, emailOutbox, invitations, notifications, sessions, users } from "@/db/schema";
import { startApiSession } from "@/lib/auth/api-tokens";
import { PASSWORD_REQUIRED_MESSAGE, verifyEmail } from "@/lib/auth/email-verification";
import { withPasswordSlot } from "@/lib/auth/password";
import { PASSWORD_SLOTS } from "@/lib/thread-pool";
import { hashToken } from "@/lib/auth/secrets";
import { completeRegistration as completeRegistrationIn } from "@/lib/invitations/complete-registration";
import { LIMITS } from "@/lib/rate-limit";
import { browserSession, call, createUser } from "../support/api";
import { bearer, latestMail, linkInLatestMail, passwordGrant, refreshGrant } from "../support/flows";
import {
  JOIN_PASSWORD,
  MSG,
  partnerEmail,
  partnerA,
  invited,
  load,
  acceptWith,
  expire,
  counts,
  tampered,
  coupleFlags,
  complete,
} from "../support/invitations";
import { nextWhileWaiting } from "../support/lock-race";
import { onPostgres } from "../support/test-database";

const verifyCall = (body: unknown) => call(verify, "POST", "/api/email-verification/verify", { body });
/** The token of the verification link in the newest e-mail to an address. */
const verificationToken = async (email: string) => (await linkInLatestMail(email)).searchParams.get("token")!;

describe("GET /api/auth/invitations/{token}", () => {
  it("shows an open invitation with the inviter's name and the couple's name", async () => {
    const inviter = await partnerA("Marisol & Thaddeus");
    const { token, email } = await invited(inviter);
    const res = await load(token);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      success: true,
      invitation: {
        partner_email: email,
        partner_first_name: "Thaddeus",
        partner_last_name: "Grant",
        inviter_first_name: "Marisol",
        inviter_name: "Marisol Okafor",
        couple_name: "Marisol & Thaddeus",
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
    expect(user).toMatchObject({
      firstName: "Thaddeus",
      lastName: "Grant",
      dateOfBirth: "1991-07-08",
      registrationType: "partner_invitation",
    });
    expect(user!.emailVerifiedAt).not.toBeNull();
    expect((await counts(inviter.coupleId)).partner2Id).toBe(user!.id);
    const [row] = await db
      .select()
      .from(invitations)
      .where(eq(invitations.tokenHash, hashToken(token)));
    expect(row!.acceptedAt).not.toBeNull();

    const [note] = await db.select().from(notifications).where(eq(notifications.userId, inviter.user.id));
    expect(note).toMatchObject({
      type: "partner_joined",
      title: "Thaddeus joined your couple!",
      // By first name, as the product names a partner everywhere (spec section 2, 'Welcome, {first name}!').
      message: "Thaddeus accepted your invitation and is now part of Marisol & Thaddeus.",
      actorUserId: user!.id,
      actorCoupleId: inviter.coupleId,
      isRead: false,
    });

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

  it("refuses the invitation of a couple suspended (a ban suspends too) as invalid, writing nothing; it works again once lifted", async () => {
    const inviter = await partnerA();
    const open = await invited(inviter);
    const db = await getDb();
    await db.update(couples).set({ status: "suspended" }).where(eq(couples.id, inviter.coupleId));
    const before = await counts(inviter.coupleId);
    expect((await load(open.token)).json.error).toEqual({ code: "INVALID_INVITATION", message: MSG.invalid });
    const refused = await acceptWith(open.token);
    expect(refused.status).toBe(400);
    expect(refused.json.error).toEqual({ code: "INVALID_INVITATION", message: MSG.invalid });
    expect(await counts(inviter.coupleId)).toEqual(before);
    await db.update(couples).set({ status: "active" }).where(eq(couples.id, inviter.coupleId));
    expect((await acceptWith(open.token)).status).toBe(200);
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
    // Two open invitations, as a couple could have before a new one revoked the earlier ones.
    await (
      await getDb()
    )
      .update(invitations)
      .set({ revokedAt: null })
      .where(eq(invitations.tokenHash, hashToken(first.token)));
    const before = await counts(inviter.coupleId);
    const results = await Promise.all([
      acceptWith(first.token, { password: "First#Pass1" }),
      acceptWith(second.token, { password: "Second#Pass2" }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const loser = results.find((r) => r.status === 409)!;
    expect(loser.json.error).toEqual({
      code: "COUPLE_FULL",
      message: "This couple already has two partners, so the invitation can no longer be used.",
    });

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

  it("refuses an earlier invitation once a newer one was sent: only the newest, the one partner A is shown, lets anyone in", async () => {
    const inviter = await partnerA();
    const mistyped = await invited(inviter, partnerEmail("typo"));
    const meant = await invited(inviter);
    const before = await counts(inviter.coupleId);
    for (const token of [mistyped.token, mistyped.shareToken]) {
      expect((await load(token)).json.error).toEqual({ code: "INVALID_INVITATION", message: MSG.invalid });
      const res = await acceptWith(token);
      expect(res.status).toBe(400);
      expect(res.json.error).toEqual({ code: "INVALID_INVITATION", message: MSG.invalid });
    }
    expect(await counts(inviter.coupleId)).toEqual(before);
    expect((await acceptWith(meant.token)).status).toBe(200);
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
    for (let i = 0; i < LIMITS.invitationAcceptPerAddress.limit; i++)
      expect((await acceptWith(`guess-${i}`, {}, headers)).status).toBe(400);
    const res = await acceptWith("guess-last", {}, headers);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("hashes the new password in a sign-in's slot, as registration does: 503 while every slot stays busy, writing nothing", async () => {
    const inviter = await partnerA();
    const { token } = await invited(inviter);
    let free!: () => void;
    const busy = new Promise<void>((resolve) => (free = resolve));
    const holders = Array.from({ length: PASSWORD_SLOTS }, () => withPasswordSlot(() => busy));
    const before = await counts(inviter.coupleId);
    const refused = await acceptWith(token);
    expect(refused.status).toBe(503);
    expect(refused.json.error.code).toBe("SERVICE_UNAVAILABLE");
    expect(await counts(inviter.coupleId)).toEqual(before);
    free();
    await Promise.all(holders);
    expect((await acceptWith(token)).status).toBe(200);
  });

  it("answers 400, not 500, to a body that is not JSON", async () => {
    const res = await call(accept, "POST", "/api/auth/invitations/accept", {
      rawBody: "[1,2",
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("VALIDATION_ERROR");
  });
});

describe("the shareable link (shown to partner A)", () => {
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
    const [user] = await db
      .select({ id: users.id, emailVerifiedAt: users.emailVerifiedAt, registrationType: users.registrationType })
      .from(users)
      .where(eq(users.email, email));
    expect(user).toMatchObject({ emailVerifiedAt: null, registrationType: "partner_invitation" });
    const after = await counts(inviter.coupleId);
    // Two e-mails: the verification to the new account, and partner A's 'partner joined' (e-mail on by default, settings).
    expect(after).toMatchObject({
      userCount: before.userCount + 1,
      mailCount: before.mailCount + 2,
      notificationCount: before.notificationCount + 1,
      partner2Id: user!.id,
    });

    const mail = await latestMail(email);
    expect(mail.subject).toBe("Verify your email address");
    const refused = await passwordGrant(email, JOIN_PASSWORD);
    expect(refused.json.error.code).toBe("EMAIL_NOT_CONFIRMED");

    // Verifying sets the password the mailbox's owner chooses: here the one who also accepted.
    await verifyEmail(db, { token: await verificationToken(email), email, password: JOIN_PASSWORD });
    expect((await passwordGrant(email, JOIN_PASSWORD)).status).toBe(200);
  });

  it("cannot take partner B's account: its verification link asks the mailbox's owner for a password (400 PASSWORD_REQUIRED) and verifies nothing without one", async () => {
    const inviter = await partnerA();
    const { token, shareToken, email } = await invited(inviter);
    await acceptWith(shareToken, { password: "Link#Holder99" });
    const verificationLink = await verificationToken(email);

    const refused = await verifyCall({ token: verificationLink, email });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toEqual({ code: "PASSWORD_REQUIRED", message: PASSWORD_REQUIRED_MESSAGE });
    const db = await getDb();
    const [account] = await db.select({ emailVerifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.email, email));
    expect(account!.emailVerifiedAt).toBeNull();
    expect((await passwordGrant(email, "Link#Holder99")).json.error.code).toBe("EMAIL_NOT_CONFIRMED");
    // Partner B's e-mailed link still works, and so does the verification link.
    expect((await load(token)).status).toBe(200);
    expect((await verifyCall({ token: verificationLink, email, password: "Mailbox#Owner7" })).status).toBe(200);
  });

  it("verifying its account sets the password the mailbox's owner chooses: the link holder's stops working, and every session and refresh token of the account ends", async () => {
    const inviter = await partnerA();
    const { shareToken, email } = await invited(inviter);
    const claim = await acceptWith(shareToken, { password: "Link#Holder99" });
    const claimantId = claim.json.user.id as string;
    const db = await getDb();
    // The account cannot sign in before it is verified; a session is made here to show none outlives the password.
    const earlier = await startApiSession(db, { id: claimantId, email, emailVerifiedAt: null });

    const res = await verifyCall({ token: await verificationToken(email), email, password: "Mailbox#Owner7" });
    expect(res.status).toBe(200);
    const live = await db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.userId, claimantId), isNull(sessions.revokedAt)));
    expect(live).toEqual([]);
    expect((await refreshGrant(earlier.refresh_token)).status).toBe(401);
    expect((await passwordGrant(email, "Link#Holder99")).json.error.code).toBe("INVALID_CREDENTIALS");
    expect((await passwordGrant(email, "Mailbox#Owner7")).status).toBe(200);
    // Partner B owns the account now: it stays the couple's partner 2.
    expect((await counts(inviter.coupleId)).partner2Id).toBe(claimantId);
  });

  it("hashes the password its verification chooses in a sign-in's slot: 503 while every slot stays busy, verifying nothing", async () => {
    const inviter = await partnerA();
    const { shareToken, email } = await invited(inviter);
    await acceptWith(shareToken, { password: "Link#Holder99" });
    const link = await verificationToken(email);
    let free!: () => void;
    const busy = new Promise<void>((resolve) => (free = resolve));
    const holders = Array.from({ length: PASSWORD_SLOTS }, () => withPasswordSlot(() => busy));
    const refused = await verifyCall({ token: link, email, password: "Mailbox#Owner7" });
    expect(refused.status).toBe(503);
    expect(refused.json.error.code).toBe("SERVICE_UNAVAILABLE");
    const db = await getDb();
    const [account] = await db.select({ emailVerifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.email, email));
    expect(account!.emailVerifiedAt).toBeNull();
    free();
    await Promise.all(holders);
    expect((await verifyCall({ token: link, email, password: "Mailbox#Owner7" })).status).toBe(200);
  });

  it("refuses a password that breaks the registration rules with their message, verifying nothing", async () => {
    const inviter = await partnerA();
    const { shareToken, email } = await invited(inviter);
    await acceptWith(shareToken);
    const res = await verifyCall({ token: await verificationToken(email), email, password: "short" });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: "VALIDATION_ERROR", fields: { password: "Password must be at least 8 characters" } });
    const db = await getDb();
    const [account] = await db.select({ emailVerifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.email, email));
    expect(account!.emailVerifiedAt).toBeNull();
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

  it("the account the e-mailed link replaces takes its 'joined' notice and its e-mails with it, as a release does", async () => {
    const inviter = await partnerA();
    const { token, shareToken, email } = await invited(inviter);
    const claimantId = (await acceptWith(shareToken, { password: "Link#Holder99" })).json.user.id as string;
    const db = await getDb();
    const naming = (userId: string) =>
      db
        .select({ to: emailOutbox.to })
        .from(emailOutbox)
        .where(arrayContains(emailOutbox.aboutUserIds, [userId]));
    // The account made through the shareable link: its verification e-mail and partner A's notice and e-mail that it joined.
    expect(await naming(claimantId)).toHaveLength(2);

    const res = await acceptWith(token);
    expect(res.status).toBe(200);
    const partnerB = res.json.user.id as string;
    // Partner A is told once, that partner B joined; nothing is left of the replaced account.
    const told = await db
      .select({ type: notifications.type, actorUserId: notifications.actorUserId })
      .from(notifications)
      .where(eq(notifications.userId, inviter.user.id));
    expect(told).toEqual([{ type: "partner_joined", actorUserId: partnerB }]);
    expect(await naming(claimantId)).toEqual([]);
    const joinedMail = await db
      .select({ about: emailOutbox.aboutUserIds })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to, inviter.user.email), eq(emailOutbox.subject, "Thaddeus joined your couple!")));
    expect(joinedMail).toEqual([{ about: [inviter.user.id, partnerB] }]);
    const verification = await db
      .select({ to: emailOutbox.to })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.to, email), eq(emailOutbox.subject, "Verify your email address")));
    expect(verification).toEqual([]);
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
    const details = { firstName: "Thaddeus", lastName: "Grant", dateOfBirth: "1990-02-03", occupation: "Chef" };
    const db = await getDb();
    const verifiedOf = async (id: string) => (await db.select({ at: users.emailVerifiedAt }).from(users).where(eq(users.id, id)))[0]!.at;

    const viaShare = await partnerA();
    const shared = await invited(viaShare);
    const unproven = await createUser({ email: shared.email, emailVerifiedAt: null });
    const joined = await completeRegistrationIn(
      db,
      unproven.id,
      { ...details, invitationToken: shared.shareToken },
      { clientAddress: "198.51.100.32" },
    );
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

describe.skipIf(!onPostgres())("a join while partner A's own row is held", () => {
  // What partner A's deletion (lib/account/deletion.ts) and profile save take first, then the couple's row:
  // a join that held the couple while it waited on partner A's row (the 'joined' notice names them) deadlocked with them.
  // NOWAIT: the couple's lock fails if the join holds it while it waits.
  it("a new account's accept waits for it before the couple's row (no deadlock)", async () => {
    const inviter = await partnerA();
    const { token } = await invited(inviter);
    const { waited, answer } = await nextWhileWaiting(
      (tx) => tx`select id from users where id = ${inviter.user.id} for update`,
      () => acceptWith(token),
      (tx) => tx`select id from couples where id = ${inviter.coupleId} for update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(200);
  });

  it("an existing account's join (complete-registration with the token) waits for it before the couple's row (no deadlock)", async () => {
    const inviter = await partnerA();
    const { token, email } = await invited(inviter);
    const joiner = await createUser({ email });
    const session = await browserSession(joiner.id);
    const { waited, answer } = await nextWhileWaiting(
      (tx) => tx`select id from users where id = ${inviter.user.id} for update`,
      () =>
        complete(
          { cookie: session.cookie, "x-csrf-token": session.csrf },
          { firstName: "Thaddeus", lastName: "Grant", dateOfBirth: "1990-02-03", invitationToken: token },
        ),
      (tx) => tx`select id from couples where id = ${inviter.coupleId} for update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(200);
  });
});
