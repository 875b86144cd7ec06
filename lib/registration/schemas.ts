import { z } from "zod";
import { dateOfBirthSchema, emailSchema, nameSchema, registrationPasswordSchema } from "@/lib/auth/schemas";

/**
 * Spec section 7: the register call takes no invitation (POST /auth/register: email, password,
 * names, date of birth); partner B joins from the invitation's link (/register?invite= is the
 * invitation page, POST /api/auth/invitations/accept) or completes registration with it
 * (invitationToken, POST /api/auth/complete-registration). A code sent here is refused, never dropped.
 */
export const INVITE_CODE_ELSEWHERE =
  "An invitation is accepted from its link, not with this form. Please open the link your partner sent you.";

/** What POST /api/auth/register and the register form's server action accept. */
export const registrationPayloadSchema = z.object({
  email: emailSchema,
  password: registrationPasswordSchema,
  firstName: nameSchema("First name"),
  lastName: nameSchema("Last name"),
  dateOfBirth: dateOfBirthSchema,
  inviteCode: z.never({ error: INVITE_CODE_ELSEWHERE }).optional(),
});
export type RegistrationPayload = z.infer<typeof registrationPayloadSchema>;

/** The register form: the payload plus the confirmation the browser checks. */
export const registrationFormSchema = registrationPayloadSchema
  .extend({ confirmPassword: z.string() })
  .refine((form) => form.password === form.confirmPassword, {
    message: "Passwords do not match",
    path: ["confirmPassword"],
  });
export type RegistrationForm = z.input<typeof registrationFormSchema>;
