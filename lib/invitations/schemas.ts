/**
 * The invitation calls' and forms' inputs (spec sections 3 and 5): zod schemas shared by the
 * forms' resolvers and the server, built from lib/invitations/rules.ts.
 */
import { z } from "zod";
import { trimmedString, oneLine } from "@/lib/fields";
import { dateOfBirthSchema, emailSchema, nameSchema, registrationPasswordSchema } from "@/lib/auth/schemas";
import { optionalOccupationField } from "@/lib/profile/schemas";
import { TOKEN_MAX } from "@/lib/auth/rules";
import { isSelfInvitation, MESSAGES } from "./rules";

/** POST /api/auth/send-invitation and the invite form: the spec's snake_case keys. */
export const invitePartnerSchema = z.object({
  partner_first_name: nameSchema("First name", MESSAGES.partnerFirstNameRequired),
  partner_last_name: nameSchema("Last name", MESSAGES.partnerLastNameRequired),
  partner_email: emailSchema,
});
export type InvitePartnerInput = z.output<typeof invitePartnerSchema>;
export type InvitePartnerForm = z.input<typeof invitePartnerSchema>;

/** The invite form knows the inviter's own address, so it refuses a self-invitation before sending. */
export const inviteFormSchema = (ownEmail: string) =>
  invitePartnerSchema.refine((input) => !isSelfInvitation(ownEmail, input.partner_email), {
    message: MESSAGES.selfInvitation,
    path: ["partner_email"],
  });

export const invitationTokenSchema = oneLine(trimmedString(TOKEN_MAX, MESSAGES.invalid).min(1, MESSAGES.invalid), MESSAGES.invalid);

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
