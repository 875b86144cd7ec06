/** Helpers of the invitation journeys' integration tests (send, look-up and accept, complete-registration). */
import { count, eq } from "drizzle-orm";
import { expect } from "vitest";
import { POST as completeRegistration } from "@/app/api/auth/complete-registration/route";
import { POST as accept } from "@/app/api/auth/invitations/accept/route";
import { GET as lookup } from "@/app/api/auth/invitations/[token]/route";
import { POST as sendInvitation } from "@/app/api/auth/send-invitation/route";
import { getDb } from "@/db/client";
import { couples, emailOutbox, invitations, notifications, users } from "@/db/schema";
import { hashToken } from "@/lib/auth/secrets";
import { browserSession, call, createUser } from "./api";
import { latestMail } from "./flows";

export const JOIN_PASSWORD = "Sunset#Walk42";
export const MSG = {
  invalid: "This invitation is invalid or has expired. Please request a new one.",
  expired: "This invitation has expired. Please ask your partner to send a new one.",
  validation: "Please check that all information is filled out correctly.",
  self: "You cannot invite yourself. Please enter your partner's email.",
  emailExists: "This email is already registered. Your partner should sign in instead.",
  alreadySent: "An invitation has already been sent to this email.",
};

let counter = 0;
export const partnerEmail = (label = "partner") => `${label}${++counter}-${Date.now()}@example.com`;

/** Partner A: a verified account with a finished couple, signed in on a browser. */
export async function partnerA(coupleName = "Marisol & Thaddeus") {
  const user = await createUser({ firstName: "Marisol", lastName: "Okafor", occupation: "Architect" });
  const db = await getDb();
  const [couple] = await db
    .insert(couples)
    .values({ partner1Id: user.id, coupleName, status: "active", partnerAVerified: true, isVisible: true })
    .returning({ id: couples.id });
  const session = await browserSession(user.id);
  return { user, coupleId: couple!.id, headers: { cookie: session.cookie, "x-csrf-token": session.csrf } };
}

export const invite = (headers: Record<string, string>, body: Record<string, unknown>) =>
  call(sendInvitation, "POST", "/api/auth/send-invitation", { headers, body });

/** The secret in the newest invitation e-mail to an address. */
export async function emailedToken(email: string): Promise<string> {
  const match = /\/register\?invite=([\w-]+)/.exec((await latestMail(email)).text);
  if (!match) throw new Error(`no invitation link in the e-mail to ${email}`);
  return match[1]!;
}

/** An invitation: `token` is the e-mailed secret (it proves the address), `shareToken` the one partner A is shown. */
export async function invited(inviter: Awaited<ReturnType<typeof partnerA>>, email = partnerEmail()) {
  const res = await invite(inviter.headers, { partner_first_name: "Thaddeus", partner_last_name: "Grant", partner_email: email });
  expect(res.status).toBe(200);
  return { email, token: await emailedToken(email), shareToken: res.json.invitation.invitation_token as string };
}

export const load = (token: string, headers: Record<string, string> = {}) =>
  call(lookup, "GET", `/api/auth/invitations/${encodeURIComponent(token)}`, { params: { token }, headers });

export const acceptWith = (token: string, overrides: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  call(accept, "POST", "/api/auth/invitations/accept", {
    body: { invitationToken: token, password: JOIN_PASSWORD, dateOfBirth: "1991-07-08", ...overrides },
    headers,
  });

export const complete = (headers: Record<string, string>, body: Record<string, unknown>) =>
  call(completeRegistration, "POST", "/api/auth/complete-registration", { headers, body });

export async function expire(token: string) {
  const db = await getDb();
  await db
    .update(invitations)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(eq(invitations.tokenHash, hashToken(token)));
}

/** The couple's invitations as if sent two minutes ago: past SENT_AGAIN_SECONDS, a 'Resend' then sends a new one. */
export async function sentEarlier(coupleId: string) {
  const db = await getDb();
  await db
    .update(invitations)
    .set({ createdAt: new Date(Date.now() - 120_000) })
    .where(eq(invitations.coupleId, coupleId));
}

/** The e-mails to an address, sent or waiting in the outbox. */
export async function mailCount(email: string): Promise<number> {
  const db = await getDb();
  const [{ value }] = (await db.select({ value: count() }).from(emailOutbox).where(eq(emailOutbox.to, email))) as [{ value: number }];
  return value;
}

export async function counts(coupleId: string) {
  const db = await getDb();
  const [{ value: userCount }] = (await db.select({ value: count() }).from(users)) as [{ value: number }];
  const [{ value: invitationCount }] = (await db.select({ value: count() }).from(invitations)) as [{ value: number }];
  const [{ value: mailCount }] = (await db.select({ value: count() }).from(emailOutbox)) as [{ value: number }];
  const [{ value: notificationCount }] = (await db.select({ value: count() }).from(notifications)) as [{ value: number }];
  const [couple] = await db.select({ partner2Id: couples.partner2Id }).from(couples).where(eq(couples.id, coupleId));
  return { userCount, invitationCount, mailCount, notificationCount, partner2Id: couple!.partner2Id };
}

export const tampered = (token: string) => `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;

/** Partner B's part and the couple's badge, as stored. */
export async function coupleFlags(coupleId: string) {
  const db = await getDb();
  const [row] = await db
    .select({ b: couples.partnerBVerified, verified: couples.isVerified })
    .from(couples)
    .where(eq(couples.id, coupleId));
  return row;
}
