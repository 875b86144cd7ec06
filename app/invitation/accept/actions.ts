"use server";

import { endBrowserSession, signInReplacingSession } from "@/lib/auth/browser-session";
import { refreshSessionClaims } from "@/lib/auth/refresh-claims";
import { action } from "@/lib/http/action";
import type { ActionResult } from "@/lib/http/action-result";
import { parseWith } from "@/lib/http/errors";
import { destinationAfter, joinWithAccount } from "@/lib/invitations/complete-registration";
import { acceptInvitation } from "@/lib/invitations/join";
import { acceptInvitationSchema, invitationTokenSchema } from "@/lib/invitations/schemas";
import { MESSAGES } from "@/lib/invitations/rules";
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
export const acceptInvitationAction: (token: string, values: unknown) => Promise<JoinResult> = action(
  {
    access: "public",
    input: (token: string, values: unknown) =>
      parseWith(acceptInvitationSchema, { ...(typeof values === "object" && values !== null ? values : {}), invitationToken: token }),
    failure: MESSAGES.acceptFailed,
  },
  async ({ db, input, clientAddress }) => {
    const accepted = await acceptInvitation(db, input, { clientAddress });
    const ids = { userId: accepted.user.id, coupleId: accepted.couple.id };
    if (!accepted.user.emailVerifiedAt) {
      deliverAfterResponse(db, accepted.emailIds);
      await endBrowserSession();
      return { ...ids, signedIn: false, verificationRequired: true };
    }
    try {
      await signInReplacingSession({ email: accepted.user.email, password: input.password });
    } catch (error) {
      // The account exists and is in the couple; only the automatic sign-in failed.
      console.error("[invitation] sign-in after accept failed", describeError(error));
      return { ...ids, signedIn: false, verificationRequired: false };
    }
    return { ...ids, signedIn: true, verificationRequired: false };
  },
);

export type JoinWithAccountResult = ActionResult<{ userId: string; coupleId: string; destination: string }>;

/**
 * 'Join {couple name}' for a signed-in account of the invited address: the same domain function
 * as POST /api/auth/complete-registration with the invitation token, the account's own names.
 * The account's flags change (partner B now), so the session cookie is rewritten before the
 * form navigates to where the account belongs.
 */
export const joinWithAccountAction: (token: unknown) => Promise<JoinWithAccountResult> = action(
  { access: "signed-in", input: (token: unknown) => parseWith(invitationTokenSchema, token), failure: MESSAGES.acceptFailed },
  async ({ db, caller, input: invitationToken, clientAddress }) => {
    const joined = await joinWithAccount(db, caller.userId, invitationToken, { clientAddress });
    await refreshSessionClaims();
    return { userId: joined.user.id, coupleId: joined.couple!.id, destination: destinationAfter(joined) };
  },
);
