/**
 * The identity fields (e-mail, passwords, names, date of birth) and the identity calls' inputs
 * (sign-in, API tokens, e-mail verification, password reset): pure, browser-safe zod schemas
 * shared by the forms, the route handlers and the server actions.
 */
import { z } from "zod";
import { boundedString, trimmedString, notAllowedMessage, oneLine, uuidField } from "@/lib/fields";
import {
  EMAIL_INVALID_MESSAGE,
  EMAIL_MAX,
  isAdult,
  isRealDate,
  NAME_MAX,
  PASSWORD_MAX,
  PASSWORD_REQUIREMENTS,
  RESET_PASSWORD_MIN,
  TOKEN_MAX,
} from "./rules";

/* Field rules shared by the forms (react-hook-form resolver) and the server. */

/**
 * Something, an '@', then a domain of dot-separated labels (at least two). Each label excludes the
 * dot that separates it from the next, so a string can match in one way only: linear time. No
 * invisible format character (U+200B, a soft hyphen, ...): with one, an address reads as another
 * account's, or as the inviter's own.
 */
const EMAIL_PATTERN = /^[^\s\p{Cf}@]+@[^\s\p{Cf}.@]+(?:\.[^\s\p{Cf}.@]+)+$/u;

export const emailSchema = oneLine(
  trimmedString(EMAIL_MAX, EMAIL_INVALID_MESSAGE).toLowerCase().regex(EMAIL_PATTERN, EMAIL_INVALID_MESSAGE),
  EMAIL_INVALID_MESSAGE,
);

export const registrationPasswordSchema = z
  .string({ error: PASSWORD_REQUIREMENTS[0].message })
  .max(PASSWORD_MAX, `Password must be no more than ${PASSWORD_MAX} characters`)
  .superRefine((password, ctx) => {
    const failed = PASSWORD_REQUIREMENTS.find((rule) => !rule.test(password));
    if (failed) ctx.addIssue({ code: "custom", message: failed.message });
  });

export const resetPasswordSchema = z
  .string({ error: `Password must be at least ${RESET_PASSWORD_MIN} characters long.` })
  .min(RESET_PASSWORD_MIN, `Password must be at least ${RESET_PASSWORD_MIN} characters long.`)
  .max(PASSWORD_MAX, `Password must be no more than ${PASSWORD_MAX} characters`);

/** A person's name; `required` replaces the message for a missing one (the invite form asks about the partner). */
export const nameSchema = (field: "First name" | "Last name", required = `${field} is required`) =>
  oneLine(
    trimmedString(NAME_MAX, `${field} must be no more than ${NAME_MAX} characters`, required).min(1, required),
    notAllowedMessage(field),
  );

/** A date is 'YYYY-MM-DD': its length is measured before any work (trimmedString), a longer one is simply not a date. */
export const dateOfBirthSchema = trimmedString("YYYY-MM-DD".length, "Please enter a valid date", "Please enter your date of birth")
  .min(1, "Please enter your date of birth")
  .refine(isRealDate, "Please enter a valid date")
  .refine((value) => isAdult(value), "You must be at least 18 years old");

/** A secret token from a link or a refresh: its length is only bounded, the domain checks its hash. */
export const secretTokenSchema = oneLine(boundedString(TOKEN_MAX).min(1), notAllowedMessage("Token"));

/** An address that is only looked up, never stored: bounded and one line, no format hint. */
const lookupEmail = oneLine(boundedString(EMAIL_MAX, EMAIL_INVALID_MESSAGE), EMAIL_INVALID_MESSAGE);

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

/**
 * The verification link's token, and the address it was sent to when the link carries it; with
 * `password`, the one the mailbox's owner chooses for an account made through an invitation's
 * shareable link (required for such an account, lib/auth/email-verification.ts).
 */
export const verifyEmailSchema = z.object({
  token: secretTokenSchema,
  email: lookupEmail.optional(),
  password: registrationPasswordSchema.optional(),
});

/** The verification page's password form (an account made through a shareable link): the registration rules, typed twice. */
export const verifyPasswordFormSchema = z
  .object({ password: registrationPasswordSchema, confirmPassword: z.string() })
  .refine((form) => form.password === form.confirmPassword, { message: "Passwords do not match", path: ["confirmPassword"] });
export type VerifyPasswordForm = z.input<typeof verifyPasswordFormSchema>;

/**
 * What /verify-email shows from its query (registration's hand-over, the e-mail's link): an address
 * only when it is one, a name only when it is one; anything else is dropped. As /login's notices
 * (login-notices.ts), a link must not make the page say whatever its author wants.
 */
export const verifyPageQuerySchema = z.object({
  email: emailSchema.optional().catch(undefined),
  name: nameSchema("First name").optional().catch(undefined),
});

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

/** The confirmation matches once the password it repeats passes its own rules (one message at a time). */
const PASSWORDS_DIFFER = "Passwords do not match. Please try again.";
const repeats = <K extends string, C extends string>(password: K, confirm: C) => ({
  path: [confirm],
  message: PASSWORDS_DIFFER,
  when: ({ issues }: { issues: readonly { path?: readonly PropertyKey[] }[] }) => !issues.some((issue) => issue.path?.[0] === password),
});

/** The reset-password form: the new password, typed twice. */
export const resetPasswordFormSchema = z
  .object({ password: resetPasswordSchema, confirm: z.string() })
  .refine((form) => form.password === form.confirm, repeats("password", "confirm"));

/** The forgot-password form: the address to send the link to. */
export const forgotPasswordFormSchema = z.object({ email: emailSchema });

/** The change-password form: the call's fields and the new password typed again. */
export const changePasswordFormSchema = changePasswordSchema
  .extend({ confirmPassword: z.string() })
  .refine((form) => form.newPassword === form.confirmPassword, repeats("newPassword", "confirmPassword"));

/** POST /api/auth/change-email: the password and the new address. */
export const changeEmailSchema = z.object({ password: confirmingPassword("Please enter your password"), newEmail: emailSchema });

/** POST /api/auth/confirm-email: the token of the link sent to the new address. */
export const confirmEmailChangeSchema = z.object({ token: secretTokenSchema });

/** DELETE /api/auth/sessions/{id}. */
export const sessionIdParamsSchema = z.object({ id: uuidField("Session not found") });
