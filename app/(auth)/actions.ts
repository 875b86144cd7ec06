"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { SignInRefused } from "@/lib/auth/auth";
import { endBrowserSession, signInReplacingSession } from "@/lib/auth/browser-session";
import { accountForResend, resendVerification, verifyEmail } from "@/lib/auth/email-verification";
import { postAuthDestination } from "@/lib/auth/guard";
import { RESET_REQUESTED_MESSAGE, requestPasswordReset, resetPassword } from "@/lib/auth/password-reset";
import { ENDED_WITH_OLD_PASSWORD } from "@/lib/registry/old-password";
import { refreshSessionClaims } from "@/lib/auth/refresh-claims";
import { emailSchema } from "@/lib/auth/schemas";
import { normalizeEmail } from "@/lib/auth/rules";
import { passwordResetSchema, verifyEmailSchema } from "@/lib/auth/schemas";
import { accountFlags, findUserByEmail } from "@/lib/auth/users";
import { action, formArgument } from "@/lib/http/action";
import { parseWith } from "@/lib/http/errors";
import type { ActionResult } from "@/lib/http/action-result";
import { deliverAfterResponse } from "@/lib/mail/outbox";
import { registrationPayloadSchema } from "@/lib/registration/schemas";
import { registerAccount } from "@/lib/registration/service";

/**
 * The identity forms' server actions: thin adapters over the same domain functions the REST
 * calls use. Each declares who may call it and its input, calls one domain function and shapes
 * the answer.
 */

export const registerAction = action(
  {
    access: "public",
    // parseWith, as POST /api/auth/register: the schema, then the characters no field may hold (a password's too).
    input: (values: unknown) => parseWith(registrationPayloadSchema, values, "Please fill in all required fields correctly."),
    failure: "Registration failed. Please try again later.",
  },
  async ({ db, input, clientAddress }) => {
    const { user, emailIds } = await registerAccount(db, input, { clientAddress });
    deliverAfterResponse(db, emailIds);
    // Verification comes first: whoever was signed in on this browser is signed out.
    await endBrowserSession();
    return { email: user.email };
  },
);

export type SignInState = ActionResult | null;

/**
 * /login is prerendered and fills its `from` field once hydrated; a form sent before that still
 * came from /login?from=..., which the Referer names (same origin: Referrer-Policy sends it whole).
 * postAuthDestination follows it only if it is one of this site's pages.
 */
function fromOfLoginPage(referer: string | null): string {
  try {
    const url = new URL(referer ?? "");
    return url.pathname === "/login" ? (url.searchParams.get("from") ?? "").slice(0, 500) : "";
  } catch {
    return "";
  }
}

/** The login form (useActionState): the credentials go to Auth.js as typed; success redirects. */
export const signInAction: (previous: SignInState, form: FormData) => Promise<SignInState> = action(
  {
    access: "public",
    input: async (_previous: SignInState, sent: FormData) => {
      const form = formArgument(sent);
      return {
        email: normalizeEmail(String(form.get("email") ?? "")),
        password: String(form.get("password") ?? ""),
        // Where to go after: a path (postAuthDestination keeps only a safe one), at most as long as the Referer's.
        from: String(form.get("from") ?? "").slice(0, 500) || fromOfLoginPage((await headers()).get("referer")),
      };
    },
  },
  async ({ db, input: { email, password, from } }) => {
    try {
      await signInReplacingSession({ email, password });
    } catch (error) {
      throw error instanceof SignInRefused ? error.appError : error;
    }
    const user = await findUserByEmail(db, email);
    const flags = user && (await accountFlags(db, user.id));
    redirect(postAuthDestination({ profileComplete: flags?.profileComplete ?? false }, from));
  },
);

/** A signed-in caller needs no address; a signed-out one (just registered) names it. */
export const resendVerificationAction = action(
  { access: "optional", input: (email: string) => email, failure: "Failed to send verification email. Please try again." },
  async ({ db, caller, input: email, clientAddress }) => {
    const userId = caller?.userId ?? (await accountForResend(db, emailSchema.parse(email), { clientAddress }));
    const { emailIds, attemptsRemaining } = await resendVerification(db, userId);
    deliverAfterResponse(db, emailIds);
    return { attemptsRemaining };
  },
);

/** `password` only for an account made through a shareable link, which the page asks for once the call answers PASSWORD_REQUIRED. */
export const verifyEmailAction = action(
  {
    access: "public",
    input: (token: string, email: string, password?: string) =>
      parseWith(verifyEmailSchema, { token, email, password }, { firstIssue: true }),
    failure: "Failed to verify email. Please try again.",
  },
  async ({ db, input }) => {
    await verifyEmail(db, input);
    return {};
  },
);

export const forgotPasswordAction = action(
  { access: "public", input: (email: string) => emailSchema.parse(email), failure: "Failed to send reset email. Please try again." },
  async ({ db, input: email, clientAddress }) => {
    await requestPasswordReset(db, email, { clientAddress });
    return { message: RESET_REQUESTED_MESSAGE };
  },
);

export const resetPasswordAction = action(
  {
    access: "public",
    input: (token: string, password: string) => parseWith(passwordResetSchema, { token, password }, { firstIssue: true }),
    failure: "Failed to update password. Please try again.",
  },
  async ({ db, input }) => {
    await resetPassword(db, input, ENDED_WITH_OLD_PASSWORD);
    return {};
  },
);

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
