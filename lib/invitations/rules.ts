/**
 * Invitation rules (spec sections 3, 5 and 8): pure and browser-safe, so the forms' resolvers and
 * the server share one copy of every field rule and message.
 */
import { z } from "zod";
import { oneLine } from "@/lib/fields";
import { dateOfBirthSchema, emailSchema, nameSchema, normalizeEmail, registrationPasswordSchema } from "@/lib/auth/rules";
import { optionalOccupationField } from "@/lib/profile/schemas";

/** An invitation link works for this long (spec section 9). */
export const INVITATION_VALID_DAYS = 7;
/** Tokens are 43 characters (256 bits, base64url); the cap only bounds what a request may carry. */
export const TOKEN_MAX = 200;

export const MESSAGES = {
  partnerFirstNameRequired: "Please enter your partner's first name",
  partnerLastNameRequired: "Please enter your partner's last name",
  selfInvitation: "You cannot invite yourself. Please enter your partner's email.",
  emailExists: "This email is already registered. Your partner should sign in instead.",
  alreadySent: "An invitation has already been sent to this email.",
  sendFailed: "Failed to send invitation",
  noCouple: "Please create your couple profile before inviting your partner.",
  coupleFull: "Your couple already has two partners.",
  notInviter: "Only the partner who created the couple can invite.",
  invalid: "This invitation is invalid or has expired. Please request a new one.",
  expired: "This invitation has expired. Please ask your partner to send a new one.",
  joinCoupleFull: "This couple already has two partners, so the invitation can no longer be used.",
  otherAddress: "This invitation was sent to a different email address.",
  acceptFailed: "Registration failed",
  setupFailed: "Failed to complete setup",
  photoFailed: "Failed to process image",
  tooManyAttempts: "Too many attempts. Please try again later.",
} as const;

/** POST /api/auth/send-invitation and the invite form: the spec's snake_case keys. */
export const invitePartnerSchema = z.object({
  partner_first_name: nameSchema("First name", MESSAGES.partnerFirstNameRequired),
  partner_last_name: nameSchema("Last name", MESSAGES.partnerLastNameRequired),
  partner_email: emailSchema,
});
export type InvitePartnerInput = z.output<typeof invitePartnerSchema>;
export type InvitePartnerForm = z.input<typeof invitePartnerSchema>;

export const isSelfInvitation = (ownEmail: string, partnerEmail: string): boolean => normalizeEmail(ownEmail) === normalizeEmail(partnerEmail);

/** The invite form knows the inviter's own address, so it refuses a self-invitation before sending. */
export const inviteFormSchema = (ownEmail: string) =>
  invitePartnerSchema.refine((input) => !isSelfInvitation(ownEmail, input.partner_email), {
    message: MESSAGES.selfInvitation,
    path: ["partner_email"],
  });

export const invitationTokenSchema = oneLine(z.string({ error: MESSAGES.invalid }).trim().min(1, MESSAGES.invalid).max(TOKEN_MAX, MESSAGES.invalid), MESSAGES.invalid);

/** POST /api/auth/invitations/accept. */
export const acceptInvitationSchema = z.object({
  invitationToken: invitationTokenSchema,
  password: registrationPasswordSchema,
  dateOfBirth: dateOfBirthSchema,
});
export type AcceptInvitationInput = z.output<typeof acceptInvitationSchema>;

/** The partner's join form: the payload without the token (the page holds it), plus the confirmation. */
export const joinFormSchema = acceptInvitationSchema
  .omit({ invitationToken: true })
  .extend({ confirmPassword: z.string() })
  .refine((form) => form.password === form.confirmPassword, { message: "Passwords do not match", path: ["confirmPassword"] });
export type JoinForm = z.input<typeof joinFormSchema>;

/** POST /api/auth/complete-registration and the partner setup form. */
export const completeRegistrationSchema = z.object({
  firstName: nameSchema("First name"),
  lastName: nameSchema("Last name"),
  dateOfBirth: dateOfBirthSchema,
  occupation: optionalOccupationField,
  invitationToken: invitationTokenSchema.optional(),
});
export type CompleteRegistrationInput = z.output<typeof completeRegistrationSchema>;
/** The partner setup form: the same fields, without a token (partner B is in the couple already). */
export const partnerSetupSchema = completeRegistrationSchema.omit({ invitationToken: true });
export type PartnerSetupForm = z.input<typeof partnerSetupSchema>;

export const expiryFrom = (now: Date): Date => new Date(now.getTime() + INVITATION_VALID_DAYS * 24 * 60 * 60 * 1000);

/** The shareable link partner A is shown, on the page's origin (the e-mail builds its own from APP_URL). */
export const invitationLink = (origin: string, token: string): string => `${origin}/register?${new URLSearchParams({ invite: token })}`;

export type InviterNameSource = {
  inviter_first_name?: string | null;
  partner1_first_name?: string | null;
  inviter_name?: string | null;
  couple_name?: string | null;
};

/**
 * Who invited the partner, as the join screen names them (spec section 3): the first of
 * inviter_first_name, partner1_first_name, inviter_name, or the first half of couple_name split
 * on ' & ', else 'Your Partner'.
 */
export function inviterName(invitation: InviterNameSource): string {
  const candidates = [invitation.inviter_first_name, invitation.partner1_first_name, invitation.inviter_name, invitation.couple_name?.split(" & ")[0]];
  return candidates.map((value) => value?.trim()).find((value) => value) ?? "Your Partner";
}
