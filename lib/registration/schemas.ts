import { z } from "zod";
import { dateOfBirthSchema, emailSchema, nameSchema, registrationPasswordSchema } from "@/lib/auth/schemas";
import { trimmedString, notAllowedMessage, oneLine } from "@/lib/fields";
import { TOKEN_MAX } from "@/lib/auth/rules";

/** What POST /api/auth/register and the register form's server action accept. */
export const registrationPayloadSchema = z.object({
  email: emailSchema,
  password: registrationPasswordSchema,
  firstName: nameSchema("First name"),
  lastName: nameSchema("Last name"),
  dateOfBirth: dateOfBirthSchema,
  inviteCode: oneLine(trimmedString(TOKEN_MAX), notAllowedMessage("Invitation code")).optional(),
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
