/**
 * The identity calls' inputs (sign-in, API tokens, e-mail verification, password reset): pure
 * zod schemas shared by the route handlers and the server actions.
 */
import { z } from "zod";
import { TOKEN_MAX } from "@/lib/invitations/rules";
import { notAllowedMessage, oneLine } from "@/lib/fields";
import { EMAIL_INVALID_MESSAGE, emailSchema, registrationPasswordSchema, resetPasswordSchema } from "./rules";

/** A secret token from a link or a refresh: its length is only bounded, the domain checks its hash. */
export const secretTokenSchema = oneLine(z.string().min(1).max(TOKEN_MAX), notAllowedMessage("Token"));

/** An address that is only looked up, never stored: bounded and one line, no format hint. */
const lookupEmail = oneLine(z.string().max(254), EMAIL_INVALID_MESSAGE);

/**
 * Sign-in with e-mail and password (the login form through Auth.js, and the API's password
 * grant). Lenient on purpose: a wrong address or password is INVALID_CREDENTIALS from the
 * domain, never a hint about which rule failed; the caps only bound the work.
 */
export const signInSchema = z.object({ email: lookupEmail, password: z.string().min(1).max(1024) });

/** POST /api/auth/token: a password grant, or a refresh-token rotation. */
export const tokenRequestSchema = z.discriminatedUnion("grant_type", [
  signInSchema.extend({ grant_type: z.literal("password") }),
  z.object({ grant_type: z.literal("refresh_token"), refresh_token: secretTokenSchema }),
]);

/** The verification link's token, and the address it was sent to when the link carries it. */
export const verifyEmailSchema = z.object({ token: secretTokenSchema, email: lookupEmail.optional() });

/** Resending the verification e-mail: no body for a signed-in caller, the address for a signed-out one. */
export const resendVerificationSchema = z.object({ email: emailSchema.optional() });

/** The reset link's token and the new password. */
export const passwordResetSchema = z.object({ token: secretTokenSchema, password: resetPasswordSchema });

/** A password typed to confirm a change: only bounded here; the domain checks it (INVALID_PASSWORD). */
const confirmingPassword = (message: string) => z.string({ error: message }).min(1, message).max(1024, message);

/** POST /api/auth/change-password: the current password and a new one meeting the registration rules. */
export const changePasswordSchema = z.object({
  currentPassword: confirmingPassword("Please enter your current password"),
  newPassword: registrationPasswordSchema,
});

/** POST /api/auth/change-email: the password and the new address. */
export const changeEmailSchema = z.object({ password: confirmingPassword("Please enter your password"), newEmail: emailSchema });

/** POST /api/auth/confirm-email: the token of the link sent to the new address. */
export const confirmEmailChangeSchema = z.object({ token: secretTokenSchema });

/** DELETE /api/auth/sessions/{id}. */
export const sessionIdParamsSchema = z.object({ id: z.uuid({ error: "Session not found" }) });
