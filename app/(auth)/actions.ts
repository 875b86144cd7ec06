"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { getDb } from "@/db/client";
import { auth, signIn, SignInRefused, signOut } from "@/lib/auth/auth";
import { accountForResend, resendVerification, verifyEmail } from "@/lib/auth/email-verification";
import { postAuthDestination } from "@/lib/auth/guard";
import { RESET_REQUESTED_MESSAGE, requestPasswordReset, resetPassword } from "@/lib/auth/password-reset";
import { emailSchema, normalizeEmail, resetPasswordSchema } from "@/lib/auth/rules";
import { refreshSessionClaims } from "@/lib/auth/refresh-claims";
import { revokeSession } from "@/lib/auth/sessions";
import { accountFlags, findUserByEmail } from "@/lib/auth/users";
import { actionFailure, type ActionResult } from "@/lib/http/action-result";
import { clientAddress } from "@/lib/http/client-address";
import { deliverAfterResponse } from "@/lib/mail/outbox";
import { registrationPayloadSchema } from "@/lib/registration/schema";
import { registerAccount } from "@/lib/registration/service";

/**
 * The identity forms' server actions: thin adapters over the same domain functions the REST
 * calls use. Each parses its input, calls one domain function and shapes the answer.
 */

const callerAddress = async () => clientAddress(await headers());

/** Ends the current browser session server-side and clears the cookie. */
async function endBrowserSession(): Promise<void> {
  const session = await auth();
  if (session?.claims.sid) await revokeSession(await getDb(), session.claims.sid);
  await signOut({ redirect: false });
}

export async function registerAction(values: unknown): Promise<ActionResult<{ email: string }>> {
  try {
    const input = registrationPayloadSchema.parse(values);
    const db = await getDb();
    const { user, emailIds } = await registerAccount(db, input, { clientAddress: await callerAddress() });
    deliverAfterResponse(db, emailIds);
    // Verification comes first: whoever was signed in on this browser is signed out.
    await endBrowserSession();
    return { ok: true, email: user.email };
  } catch (error) {
    return actionFailure(error, "Registration failed. Please try again later.");
  }
}

export type SignInState = ActionResult | null;

export async function signInAction(_previous: SignInState, form: FormData): Promise<SignInState> {
  const email = normalizeEmail(String(form.get("email") ?? ""));
  const password = String(form.get("password") ?? "");
  const from = String(form.get("from") ?? "");
  const previous = await auth();
  try {
    await signIn("credentials", { email, password, redirect: false });
  } catch (error) {
    if (error instanceof SignInRefused) return actionFailure(error.appError);
    return actionFailure(error);
  }
  const db = await getDb();
  // Signing in again on this browser replaces the earlier session rather than leaving it live.
  if (previous?.claims.sid) await revokeSession(db, previous.claims.sid);
  const user = await findUserByEmail(db, email);
  const flags = user && (await accountFlags(db, user.id));
  redirect(postAuthDestination({ profileComplete: flags?.profileComplete ?? false }, from));
}

export async function resendVerificationAction(email: string): Promise<ActionResult<{ attemptsRemaining: number }>> {
  try {
    const db = await getDb();
    const session = await auth();
    const userId = session?.claims.sub ?? (await accountForResend(db, emailSchema.parse(email), { clientAddress: await callerAddress() }));
    const { emailIds, attemptsRemaining } = await resendVerification(db, userId);
    deliverAfterResponse(db, emailIds);
    return { ok: true, attemptsRemaining };
  } catch (error) {
    return actionFailure(error, "Failed to send verification email. Please try again.");
  }
}

export async function verifyEmailAction(token: string, email: string): Promise<ActionResult> {
  try {
    const input = z.object({ token: z.string().min(1).max(200), email: z.string().max(254) }).parse({ token, email });
    await verifyEmail(await getDb(), input);
    return { ok: true };
  } catch (error) {
    return actionFailure(error, "Failed to verify email. Please try again.");
  }
}

export async function forgotPasswordAction(email: string): Promise<ActionResult<{ message: string }>> {
  try {
    const db = await getDb();
    const { emailIds } = await requestPasswordReset(db, emailSchema.parse(email), { clientAddress: await callerAddress() });
    deliverAfterResponse(db, emailIds);
    return { ok: true, message: RESET_REQUESTED_MESSAGE };
  } catch (error) {
    return actionFailure(error, "Failed to send reset email. Please try again.");
  }
}

export async function resetPasswordAction(token: string, password: string): Promise<ActionResult> {
  try {
    const input = z.object({ token: z.string().min(1).max(200), password: resetPasswordSchema }).parse({ token, password });
    await resetPassword(await getDb(), input);
    return { ok: true };
  } catch (error) {
    return actionFailure(error, "Failed to update password. Please try again.");
  }
}

export async function signOutAction(): Promise<void> {
  await endBrowserSession();
}

/**
 * For screens whose change went through a REST call (the onboarding steps upload with XHR for real
 * progress): brings the session cookie's flags up to date before the next navigation.
 */
export async function refreshSessionAction(): Promise<void> {
  await refreshSessionClaims();
}
