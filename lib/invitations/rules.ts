/**
 * Invitation rules (spec sections 3, 5 and 8): pure and browser-safe, so the forms' resolvers and
 * the server share one copy of every field rule and message.
 */
import { z } from "zod";
import { oneLine } from "@/lib/fields";
import { dateOfBirthSchema, emailSchema, nameSchema, normalizeEmail, registrationPasswordSchema } from "@/lib/auth/rules";
import { optionalOccupationField } from "@/lib/profile/schemas";
import { INVITATION_VALID_DAYS, MESSAGES } from "./plain-rules";

/** Tokens are 43 characters (256 bits, base64url); the cap only bounds what a request may carry. */
export const TOKEN_MAX = 200;

export { INVITATION_VALID_DAYS, invitationLink, MESSAGES } from "./plain-rules";

/** POST /api/auth/send-invitation and the invite form: the spec's snake_case keys. */
export const invitePartnerSchema = z.object({
  partner_first_name: nameSchema("First name", MESSAGES.partnerFirstNameRequired),
  partner_last_name: nameSchema("Last name", MESSAGES.partnerLastNameRequired),
  partner_email: emailSchema,
});
export type InvitePartnerInput = z.output<typeof invitePartnerSchema>;
export type InvitePartnerForm = z.input<typeof invitePartnerSchema>;

export const isSelfInvitation = (ownEmail: string, partnerEmail: string): boolean =>
  normalizeEmail(ownEmail) === normalizeEmail(partnerEmail);

/** The invite form knows the inviter's own address, so it refuses a self-invitation before sending. */
export const inviteFormSchema = (ownEmail: string) =>
  invitePartnerSchema.refine((input) => !isSelfInvitation(ownEmail, input.partner_email), {
    message: MESSAGES.selfInvitation,
    path: ["partner_email"],
  });

export const invitationTokenSchema = oneLine(
  z.string({ error: MESSAGES.invalid }).trim().min(1, MESSAGES.invalid).max(TOKEN_MAX, MESSAGES.invalid),
  MESSAGES.invalid,
);

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
  const candidates = [
    invitation.inviter_first_name,
    invitation.partner1_first_name,
    invitation.inviter_name,
    invitation.couple_name?.split(" & ")[0],
  ];
  return candidates.map((value) => value?.trim()).find((value) => value) ?? "Your Partner";
}
