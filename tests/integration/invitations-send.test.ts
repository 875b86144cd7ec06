import { arrayContains, desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as verify } from "@/app/api/email-verification/verify/route";
import { getDb } from "@/db/client";
import { bannedEmails, emailOutbox, invitations, notifications, users, userTokens } from "@/db/schema";
import { issueVerificationEmail, verifyEmail } from "@/lib/auth/email-verification";
import { loadDashboard } from "@/lib/dashboard/queries";
import { hashToken } from "@/lib/auth/secrets";
import { cancelInvitation, partnerView, resendInvitation } from "@/lib/invitations/manage";
import { inviteScreen } from "@/lib/invitations/send";
import { LIMITS } from "@/lib/rate-limit";
import { BANNED_EMAIL } from "@/lib/safety/rules";
import { bannedEmailHash } from "@/lib/safety/sanctions";
import { nextWhileWaiting, whileHeld } from "../support/lock-race";
import { onPostgres } from "../support/test-database";
import { browserSession, call, createUser } from "../support/api";
import { apiSession, bearer, latestMail, linkInLatestMail } from "../support/flows";
import {
  JOIN_PASSWORD,
  MSG,
  partnerEmail,
  partnerA,
  invite,
  emailedToken,
  invited,
  load,
  acceptWith,
  expire,
  counts,
  mailCount,
} from "../support/invitations";

const verifyEmailCall = (body: unknown) => call(verify, "POST", "/api/email-verification/verify", { body });

describe("POST /api/auth/send-invitation", () => {
  it("stores only the hashes of its two secrets, valid 7 days; e-mails the partner an absolute /register?invite= link and answers with the other, shareable one", async () => {
    const inviter = await partnerA();
    const email = partnerEmail();
    const res = await invite(inviter.headers, {
      partner_first_name: " Thaddeus ",
      partner_last_name: "Grant",
      partner_email: email.toUpperCase(),
    });
    expect(res.status).toBe(200);
    const { invitation } = res.json;
    expect(invitation).toMatchObject({ partner_email: email, partner_first_name: "Thaddeus", partner_last_name: "Grant" });
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
    expect(mail.text).toContain("Hi Thaddeus,");
    expect(mail.text).toContain("Marisol");
    expect(mail.text).toContain("7 days");
  });

  it("works for an API client with a bearer token, without a CSRF token", async () => {
    const inviter = await partnerA();
    const session = await apiSession(inviter.user.email);
    const res = await invite(bearer(session.access_token), {
      partner_first_name: "Thaddeus",
      partner_last_name: "Grant",
      partner_email: partnerEmail(),
    });
    expect(res.status).toBe(200);
  });

  it("refuses a cookie call without the CSRF token and writes nothing", async () => {
    const inviter = await partnerA();
    const before = await counts(inviter.coupleId);
    const res = await invite(
      { cookie: inviter.headers.cookie },
      { partner_first_name: "Thaddeus", partner_last_name: "Grant", partner_email: partnerEmail() },
    );
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe("CSRF_VALIDATION_FAILED");
    expect(await counts(inviter.coupleId)).toEqual(before);
  });

  it("refuses a signed-out caller", async () => {
    const res = await invite({}, { partner_first_name: "Thaddeus", partner_last_name: "Grant", partner_email: partnerEmail() });
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
    const res = await invite(inviter.headers, {
      partner_first_name: "Me",
      partner_last_name: "Again",
      partner_email: ` ${inviter.user.email.toUpperCase()} `,
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: "VALIDATION_ERROR", message: MSG.self, fields: { partner_email: MSG.self } });
    expect(await counts(inviter.coupleId)).toEqual(before);
  });

  it("refuses the inviter's own address behind an invisible character: it is no other person's address", async () => {
    const inviter = await partnerA();
    const before = await counts(inviter.coupleId);
    const res = await invite(inviter.headers, {
      partner_first_name: "Me",
      partner_last_name: "Again",
      partner_email: `${inviter.user.email}\u200b`,
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: "VALIDATION_ERROR", fields: { partner_email: "Please enter a valid email address" } });
    expect(await counts(inviter.coupleId)).toEqual(before);
  });

  it("refuses an address that already has an account", async () => {
    const inviter = await partnerA();
    const other = await createUser();
    const before = await counts(inviter.coupleId);
    const res = await invite(inviter.headers, { partner_first_name: "Thaddeus", partner_last_name: "Grant", partner_email: other.email });
    expect(res.status).toBe(409);
    expect(res.json.error).toEqual({ code: "EMAIL_EXISTS", message: MSG.emailExists });
    expect(await counts(inviter.coupleId)).toEqual(before);
  });

  it("refuses to invite a banned couple's partner's address as accepting would, e-mailing nothing", async () => {
    const inviter = await partnerA();
    const email = partnerEmail("banned");
    await (await getDb()).insert(bannedEmails).values({ emailHash: bannedEmailHash(email) });
    const before = await counts(inviter.coupleId);
    const res = await invite(inviter.headers, {
      partner_first_name: "Thaddeus",
      partner_last_name: "Grant",
      partner_email: email.toUpperCase(),
    });
    expect(res.status).toBe(403);
    expect(res.json.error).toEqual({ code: "FORBIDDEN", message: BANNED_EMAIL });
    expect(await counts(inviter.coupleId)).toEqual(before);
    expect(await mailCount(email)).toBe(0);
  });

  it("replacing an account that never proved the address takes its own mail only: another couple's invitation to the address still waits", async () => {
    const inviter = await partnerA();
    const otherInviter = await partnerA("Rosa & Ben");
    const email = partnerEmail("squatted");
    const squatter = await createUser({ email, emailVerifiedAt: null });
    const db = await getDb();
    const squattersOwn = await issueVerificationEmail(db, { id: squatter.id, email, firstName: "Squatter" });
    await invited(otherInviter, email);
    const { token } = await invited(inviter, email);
    const othersInvitation = (await db.select().from(emailOutbox).where(eq(emailOutbox.to, email))).find((mail) =>
      mail.aboutUserIds.includes(otherInviter.user.id),
    );
    expect(othersInvitation).toBeDefined();
    expect((await acceptWith(token)).status).toBe(200);
    const left = (await db.select({ id: emailOutbox.id }).from(emailOutbox).where(eq(emailOutbox.to, email))).map((mail) => mail.id);
    expect(left).toContain(othersInvitation!.id);
    expect(left).not.toContain(squattersOwn);
  });

  it("invites an address held by an account that never proved it and started no couple; the e-mailed link replaces that account", async () => {
    const inviter = await partnerA();
    const email = partnerEmail("squatted");
    const squatter = await createUser({ email, emailVerifiedAt: null });
    const res = await invite(inviter.headers, { partner_first_name: "Thaddeus", partner_last_name: "Grant", partner_email: email });
    expect(res.status).toBe(200);
    expect((await acceptWith(await emailedToken(email))).status).toBe(200);
    const db = await getDb();
    const [b] = await db.select({ id: users.id, emailVerifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.email, email));
    expect(b!.id).not.toBe(squatter.id);
    expect(b!.emailVerifiedAt).not.toBeNull();
    expect((await counts(inviter.coupleId)).partner2Id).toBe(b!.id);
  });

  it("refuses an address whose unverified account started a couple of its own, as the e-mailed link would not replace it", async () => {
    const inviter = await partnerA();
    const other = await partnerA("Other & Pair");
    const db = await getDb();
    await db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, other.user.id));
    const res = await invite(inviter.headers, {
      partner_first_name: "Thaddeus",
      partner_last_name: "Grant",
      partner_email: other.user.email,
    });
    expect(res.status).toBe(409);
    expect(res.json.error).toEqual({ code: "EMAIL_EXISTS", message: MSG.emailExists });
  });

  it("refuses a second invitation to the same e-mail while the first is open", async () => {
    const inviter = await partnerA();
    const { email } = await invited(inviter);
    const before = await counts(inviter.coupleId);
    const res = await invite(inviter.headers, {
      partner_first_name: "Thaddeus",
      partner_last_name: "Grant",
      partner_email: email.toUpperCase(),
    });
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
    const rows = await db
      .select({ tokenHash: invitations.tokenHash, revokedAt: invitations.revokedAt })
      .from(invitations)
      .where(eq(invitations.coupleId, inviter.coupleId));
    expect(rows).toHaveLength(2);
    expect(rows.find((row) => row.tokenHash === hashToken(first.token))?.revokedAt).not.toBeNull();
    expect(rows.find((row) => row.tokenHash === hashToken(second.token))?.revokedAt).toBeNull();
    expect((await load(first.token)).json.error.code).toBe("INVALID_INVITATION");
    expect((await load(second.token)).status).toBe(200);
  });

  it("refuses a user without a couple", async () => {
    const user = await createUser();
    const session = await browserSession(user.id);
    const res = await invite(
      { cookie: session.cookie, "x-csrf-token": session.csrf },
      { partner_first_name: "Thaddeus", partner_last_name: "Grant", partner_email: partnerEmail() },
    );
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("NO_COUPLE");
  });

  it("refuses a third partner: neither partner of a full couple can invite", async () => {
    const inviter = await partnerA();
    const { token } = await invited(inviter);
    const joined = await acceptWith(token);
    expect(joined.status).toBe(200);

    const again = await invite(inviter.headers, {
      partner_first_name: "Third",
      partner_last_name: "Wheel",
      partner_email: partnerEmail("third"),
    });
    expect(again.status).toBe(409);
    expect(again.json.error).toEqual({ code: "COUPLE_FULL", message: "Your couple already has two partners." });

    const partnerB = await apiSession(joined.json.user.email, JOIN_PASSWORD);
    const fromB = await invite(bearer(partnerB.access_token), {
      partner_first_name: "Third",
      partner_last_name: "Wheel",
      partner_email: partnerEmail("third"),
    });
    expect(fromB.json.error.code).toBe("COUPLE_FULL");
  });

  it("limits the invitations one account sends per hour", async () => {
    const inviter = await partnerA();
    for (let i = 0; i < LIMITS.invitationsPerInviter.limit; i++) await invited(inviter);
    const res = await invite(inviter.headers, {
      partner_first_name: "Thaddeus",
      partner_last_name: "Grant",
      partner_email: partnerEmail(),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("counts refused attempts too, so whether addresses have accounts cannot be probed without limit", async () => {
    const inviter = await partnerA();
    const taken = await createUser();
    for (let i = 0; i < LIMITS.invitationsPerInviter.limit; i++) {
      const res = await invite(inviter.headers, { partner_first_name: "Thaddeus", partner_last_name: "Grant", partner_email: taken.email });
      expect(res.json.error.code).toBe("EMAIL_EXISTS");
    }
    const probe = await invite(inviter.headers, { partner_first_name: "Thaddeus", partner_last_name: "Grant", partner_email: taken.email });
    expect(probe.status).toBe(429);
    expect(probe.json.error.code).toBe("RATE_LIMITED");
    const fresh = await invite(inviter.headers, {
      partner_first_name: "Thaddeus",
      partner_last_name: "Grant",
      partner_email: partnerEmail(),
    });
    expect(fresh.status).toBe(429);
  });

  it("holds the limit under parallel sends", async () => {
    const inviter = await partnerA();
    const taken = await createUser();
    const extra = 4;
    const results = await Promise.all(
      Array.from({ length: LIMITS.invitationsPerInviter.limit + extra }, () =>
        invite(inviter.headers, { partner_first_name: "Thaddeus", partner_last_name: "Grant", partner_email: taken.email }),
      ),
    );
    const codes = results.map((res) => res.json.error.code);
    expect(codes.filter((code) => code === "EMAIL_EXISTS")).toHaveLength(LIMITS.invitationsPerInviter.limit);
    expect(codes.filter((code) => code === "RATE_LIMITED")).toHaveLength(extra);
  });
});

describe("a partner 2 who joined through the shareable link and never verified (a mistyped address, say)", () => {
  /** Partner A's invitation to a mistyped address, claimed through the shareable link, its e-mailed link expired: the slot nobody can verify. */
  async function claimedAndExpired() {
    const inviter = await partnerA();
    const link = await invited(inviter, partnerEmail("mistyped"));
    const claim = await acceptWith(link.shareToken);
    expect(claim.status).toBe(200);
    await expire(link.token);
    return { inviter, ...link, claimantId: claim.json.user.id as string };
  }

  it.skipIf(!onPostgres())("does not fill the couple when they join while partner A's new invitation waits for the couple", async () => {
    const inviter = await partnerA();
    const { email } = await invited(inviter, partnerEmail("mistyped"));
    const claimant = await createUser({ email, emailVerifiedAt: null, registrationType: "partner_invitation" });
    const [res] = await whileHeld(
      // What a join through the shareable link does to the couple (lib/invitations/join.ts joinCouple), its transaction still open.
      (tx) => tx`update couples set partner2_id = ${claimant.id} where id = ${inviter.coupleId}`,
      [() => invite(inviter.headers, { partner_first_name: "Thaddeus", partner_last_name: "Grant", partner_email: partnerEmail() })],
    );
    expect(res!.status).toBe(200);
    const db = await getDb();
    expect(await db.select({ id: users.id }).from(users).where(eq(users.id, claimant.id))).toEqual([]);
  });

  it.skipIf(!onPostgres())("is removed by 'Cancel' when they join while the cancel waits for the couple", async () => {
    const inviter = await partnerA();
    const { email } = await invited(inviter, partnerEmail("mistyped"));
    const claimant = await createUser({ email, emailVerifiedAt: null, registrationType: "partner_invitation" });
    const [cancelled] = await whileHeld(
      (tx) => tx`update couples set partner2_id = ${claimant.id} where id = ${inviter.coupleId}`,
      [
        async () =>
          cancelInvitation(await getDb(), inviter.user.id).then(
            () => "cancelled",
            (error: { code?: string }) => error.code,
          ),
      ],
    );
    expect(cancelled).toBe("cancelled");
    const db = await getDb();
    expect(await db.select({ id: users.id }).from(users).where(eq(users.id, claimant.id))).toEqual([]);
  });

  it("does not fill the couple: partner A is shown the invitation and may invite again", async () => {
    const { inviter, email } = await claimedAndExpired();
    const db = await getDb();
    expect(await partnerView(db, inviter.user.id)).toEqual({
      kind: "invited",
      invitation: {
        partnerEmail: email,
        partnerFirstName: "Thaddeus",
        partnerLastName: "Grant",
        expiresAt: expect.any(String),
        expired: true,
      },
    });
    expect(await inviteScreen(db, inviter.user.id)).toEqual({ kind: "ready", ownEmail: inviter.user.email });
    expect((await loadDashboard(db, inviter.user.id)).invitation).toMatchObject({ partnerEmail: email, expired: true });
  });

  it("'Cancel' removes that account (its tokens with it) and the invitation's links stop working; its mail goes with it, nothing else", async () => {
    const { inviter, token, shareToken, email, claimantId } = await claimedAndExpired();
    const verificationLink = (await linkInLatestMail(email)).searchParams.get("token")!;
    const before = await counts(inviter.coupleId);
    const db = await getDb();
    await cancelInvitation(db, inviter.user.id);

    expect(await db.select({ id: users.id }).from(users).where(eq(users.id, claimantId))).toEqual([]);
    expect(await db.select({ id: userTokens.id }).from(userTokens).where(eq(userTokens.userId, claimantId))).toEqual([]);
    // Partner A keeps their account and their couple; the notice that this account joined goes with
    // it, and its mail: its verification e-mail, partner A's 'joined' e-mail. The invitation e-mail
    // is partner A's, as on any 'Cancel'.
    expect(await counts(inviter.coupleId)).toEqual({
      ...before,
      userCount: before.userCount - 1,
      notificationCount: before.notificationCount - 1,
      mailCount: before.mailCount - 2,
      partner2Id: null,
    });
    expect(await db.select({ id: notifications.id }).from(notifications).where(eq(notifications.userId, inviter.user.id))).toEqual([]);
    expect((await load(token)).json.error.code).toBe("INVALID_INVITATION");
    expect((await acceptWith(shareToken)).json.error.code).toBe("INVALID_INVITATION");
    expect((await verifyEmailCall({ token: verificationLink, email, password: "Mailbox#Owner7" })).json.error.code).toBe("INVALID_TOKEN");
    expect(await partnerView(db, inviter.user.id)).toEqual({ kind: "none", canInvite: true });
    await expect(cancelInvitation(db, inviter.user.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("'Cancel' takes that account's e-mails with it: its own to its address and partner A's 'joined' e-mail naming it", async () => {
    const { inviter, email, claimantId } = await claimedAndExpired();
    const db = await getDb();
    const mailOf = () =>
      db
        .select({ to: emailOutbox.to, subject: emailOutbox.subject })
        .from(emailOutbox)
        .where(arrayContains(emailOutbox.aboutUserIds, [claimantId]));
    // The verification e-mail to the address, and partner A's e-mail that 'Thaddeus Grant' joined.
    expect(await mailOf()).toContainEqual({ to: inviter.user.email, subject: "Thaddeus joined your couple!" });
    expect(await mailOf()).toContainEqual({ to: email, subject: expect.any(String) });
    await db.insert(emailOutbox).values({ to: inviter.user.email, subject: "For partner A", text: "", html: "" });

    await cancelInvitation(db, inviter.user.id);
    // As an account's deletion takes the mail to or naming its person (lib/account/deletion.ts).
    expect(await mailOf()).toEqual([]);
    const [kept] = await db.select({ subject: emailOutbox.subject }).from(emailOutbox).where(eq(emailOutbox.subject, "For partner A"));
    expect(kept).toBeDefined();
  });

  it("'Cancel' or a new invitation ends the claimed invitation for good: its e-mailed link stays dead once the address claims the next one", async () => {
    for (const replace of ["cancel", "resend"] as const) {
      const inviter = await partnerA();
      const first = await invited(inviter, partnerEmail("claimed"));
      expect((await acceptWith(first.shareToken)).status).toBe(200);
      const db = await getDb();
      if (replace === "cancel") {
        await cancelInvitation(db, inviter.user.id);
        await invited(inviter, first.email);
      } else await resendInvitation(db, inviter.user.id);
      const [next] = await db
        .select({ id: invitations.id })
        .from(invitations)
        .where(eq(invitations.coupleId, inviter.coupleId))
        .orderBy(desc(invitations.createdAt))
        .limit(1);
      // The address is claimed again through the new invitation's shareable link, by someone without its mail.
      await db
        .update(invitations)
        .set({ shareTokenHash: hashToken(`next-share-link-${replace}`) })
        .where(eq(invitations.id, next!.id));
      expect((await acceptWith(`next-share-link-${replace}`)).status, replace).toBe(200);
      expect((await load(first.token)).json.error?.code, replace).toBe("INVALID_INVITATION");
      expect((await acceptWith(first.token)).json.error?.code, replace).toBe("INVALID_INVITATION");
    }
  });

  it("a new invitation, to the right address, replaces that account; partner B joins with its e-mailed link", async () => {
    const { inviter, claimantId } = await claimedAndExpired();
    const right = await invited(inviter, partnerEmail("right"));
    const db = await getDb();
    expect(await db.select({ id: users.id }).from(users).where(eq(users.id, claimantId))).toEqual([]);
    expect(await db.select({ id: notifications.id }).from(notifications).where(eq(notifications.userId, inviter.user.id))).toEqual([]);
    const joined = await acceptWith(right.token);
    expect(joined.status).toBe(200);
    expect((await counts(inviter.coupleId)).partner2Id).toBe(joined.json.user.id);
  });

  it("'Resend' e-mails that invitation again to the same address, replacing that account", async () => {
    const { inviter, token, email, claimantId } = await claimedAndExpired();
    const db = await getDb();
    const sent = await resendInvitation(db, inviter.user.id);
    expect(sent.invitation).toMatchObject({ partner_email: email, partner_first_name: "Thaddeus", partner_last_name: "Grant" });
    expect(await db.select({ id: users.id }).from(users).where(eq(users.id, claimantId))).toEqual([]);
    const fresh = await emailedToken(email);
    expect(fresh).not.toBe(token);
    expect((await acceptWith(fresh)).status).toBe(200);
  });

  it("fills the couple once it verified with its own password: cancel, resend and send answer COUPLE_FULL", async () => {
    const { inviter, email, claimantId } = await claimedAndExpired();
    const db = await getDb();
    const verificationLink = (await linkInLatestMail(email)).searchParams.get("token")!;
    await verifyEmail(db, { token: verificationLink, email, password: "Mailbox#Owner7" });
    await expect(cancelInvitation(db, inviter.user.id)).rejects.toMatchObject({ code: "COUPLE_FULL" });
    await expect(resendInvitation(db, inviter.user.id)).rejects.toMatchObject({ code: "COUPLE_FULL" });
    const again = await invite(inviter.headers, {
      partner_first_name: "Thaddeus",
      partner_last_name: "Grant",
      partner_email: partnerEmail(),
    });
    expect(again.json.error.code).toBe("COUPLE_FULL");
    expect((await counts(inviter.coupleId)).partner2Id).toBe(claimantId);
  });
});

describe.skipIf(!onPostgres())("an invitation sent while partner A's own row is held", () => {
  it("waits for it before the couple's row, so a profile save or deletion holding it never deadlocks with the send", async () => {
    const inviter = await partnerA();
    const { waited, answer } = await nextWhileWaiting(
      // What a profile save naming an image (lib/images/lifecycle.ts) and an account's deletion take first...
      (tx) => tx`select id from users where id = ${inviter.user.id} for update`,
      () => invite(inviter.headers, { partner_first_name: "Thaddeus", partner_last_name: "Grant", partner_email: partnerEmail() }),
      // ...and then the couple's row. NOWAIT: it fails if the send holds it while it waits on the person's row.
      (tx) => tx`select id from couples where id = ${inviter.coupleId} for update nowait`,
    );
    expect(waited).toBe(true);
    expect(answer.status).toBe(200);
  });
});
