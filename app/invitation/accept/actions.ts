"use server";

import { headers } from "next/headers";
import { getDb } from "@/db/client";
import { auth, signIn, signOut } from "@/lib/auth/auth";
import { requireActionUserId } from "@/lib/auth/current-session";
import { refreshSessionClaims } from "@/lib/auth/refresh-claims";
import { revokeSession } from "@/lib/auth/sessions";
import { actionFailure, type ActionResult } from "@/lib/http/action-result";
import { clientAddress } from "@/lib/http/client-address";
import { parseWith } from "@/lib/http/errors";
import { destinationAfter, joinWithAccount } from "@/lib/invitations/complete-registration";
import { acceptInvitation } from "@/lib/invitations/join";
import { acceptInvitationSchema, invitationTokenSchema, MESSAGES } from "@/lib/invitations/rules";
import { deliverAfterResponse } from "@/lib/mail/outbox";
import { describeError } from "@/lib/log";

export type JoinResult = ActionResult<{ userId: string; coupleId: string; signedIn: boolean; verificationRequired: boolean }>;

/**
 * The partner's join form (on /invitation/accept and /register?invite=): the same domain function
 * as POST /api/auth/invitations/accept. With the e-mailed link, a browser sign-in with the new
 * account follows; with the shareable link the account verifies its e-mail first. The password
 * goes no further than the sign-in and is never sent back. Either way, whoever was signed in on
 * this browser before is replaced, not left with a live session.
 */
export async function acceptInvitationAction(token: string, values: unknown): Promise<JoinResult> {
  const db = await getDb();
  let accepted;
  let password: string;
  try {
    const fields = typeof values === "object" && values !== null ? values : {};
    const input = parseWith(acceptInvitationSchema, { ...fields, invitationToken: token });
    password = input.password;
    accepted = await acceptInvitation(db, input, { clientAddress: clientAddress(await headers()) });
  } catch (error) {
    return actionFailure(error, MESSAGES.acceptFailed);
  }
  const ids = { userId: accepted.user.id, coupleId: accepted.couple.id };
  const previous = await auth();
  if (!accepted.user.emailVerifiedAt) {
    deliverAfterResponse(db, accepted.emailIds);
    if (previous?.claims.sid) await revokeSession(db, previous.claims.sid);
    await signOut({ redirect: false });
    return { ok: true, ...ids, signedIn: false, verificationRequired: true };
  }
  try {
    await signIn("credentials", { email: accepted.user.email, password, redirect: false });
  } catch (error) {
    // The account exists and is in the couple; only the automatic sign-in failed.
    console.error("[invitation] sign-in after accept failed", describeError(error));
    return { ok: true, ...ids, signedIn: false, verificationRequired: false };
  }
  if (previous?.claims.sid) await revokeSession(db, previous.claims.sid);
  return { ok: true, ...ids, signedIn: true, verificationRequired: false };
}

export type JoinWithAccountResult = ActionResult<{ userId: string; coupleId: string; destination: string }>;

/**
 * 'Join {couple name}' for a signed-in account of the invited address: the same domain function
 * as POST /api/auth/complete-registration with the invitation token, the account's own names.
 * The account's flags change (partner B now), so the session cookie is rewritten before the
 * form navigates to where the account belongs.
 */
export async function joinWithAccountAction(token: unknown): Promise<JoinWithAccountResult> {
  try {
    const userId = await requireActionUserId();
    const invitationToken = parseWith(invitationTokenSchema, token);
    const joined = await joinWithAccount(await getDb(), userId, invitationToken, { clientAddress: clientAddress(await headers()) });
    await refreshSessionClaims();
    return { ok: true, userId: joined.user.id, coupleId: joined.couple!.id, destination: destinationAfter(joined) };
  } catch (error) {
    return actionFailure(error, MESSAGES.acceptFailed);
  }
}
