/**
 * The person's own fields: each field's schema (shared by the forms and the server) and the JSON
 * calls' schemas (profile update, profile completion). Pure and browser-safe.
 */
import { z } from "zod";
import { dateOfBirthSchema, nameSchema } from "@/lib/auth/schemas";
import { BIO_MAX, COUPLE_MESSAGES } from "@/lib/couples/rules";
import { coupleCreateSchema } from "@/lib/couples/schemas";
import { trimmedString, multiLine, NOTHING_TO_UPDATE_MESSAGE, oneLine, requiredText } from "@/lib/fields";
import { imageUrlField } from "@/lib/images/schemas";
import { interestsField } from "@/lib/interests/schemas";
import { OCCUPATION_MAX, PROFILE_MESSAGES } from "./rules";

export const occupationField = requiredText(
  OCCUPATION_MAX,
  PROFILE_MESSAGES.occupationRequired,
  PROFILE_MESSAGES.occupationTooLong,
  PROFILE_MESSAGES.occupationNotAllowed,
);

/** The occupation where it may be left out: empty means "not given". */
export const optionalOccupationField = z.preprocess(
  (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
  oneLine(trimmedString(OCCUPATION_MAX, PROFILE_MESSAGES.occupationTooLong), PROFILE_MESSAGES.occupationNotAllowed).optional(),
);

/** The person's own fields (profile update and profile completion). */
export const userFields = z.object({
  firstName: nameSchema("First name"),
  lastName: nameSchema("Last name"),
  dateOfBirth: dateOfBirthSchema,
  occupation: occupationField,
  // A person's bio has the couple bio's ceiling, but no minimum.
  bio: multiLine(trimmedString(BIO_MAX, COUPLE_MESSAGES.bioTooLong), COUPLE_MESSAGES.bioNotAllowed),
  avatarUrl: imageUrlField.nullable(),
});

/** POST /api/v2/profile/complete-setup (spec section 3, profile completion payload). */
export const profileCompletionSchema = z.object({
  userData: z.preprocess((value) => value ?? {}, userFields.partial({ bio: true, avatarUrl: true })),
  coupleData: coupleCreateSchema,
});
export type ProfileCompletionInput = z.output<typeof profileCompletionSchema>;

/** Accepts the spec's camelCase keys and their snake_case spellings. */
const SNAKE_TO_CAMEL: Record<string, string> = {
  first_name: "firstName",
  last_name: "lastName",
  date_of_birth: "dateOfBirth",
  avatar_url: "avatarUrl",
};

/** Any of the person's own fields, their interests too; anything else (e-mail, ids, hashes) is refused, not ignored. */
export const profileUpdateSchema = userFields
  .extend({ interests: interestsField })
  .partial()
  .strict()
  .refine((update) => Object.keys(update).length > 0, NOTHING_TO_UPDATE_MESSAGE);

export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

export function normalizeProfileKeys(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).map(([key, value]) => [SNAKE_TO_CAMEL[key] ?? key, value]));
}
