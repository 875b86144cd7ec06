/**
 * The person's own fields in JSON calls (profile update, profile completion) and the completion
 * percentage: pure and browser-safe.
 */
import { z } from "zod";
import { dateOfBirthSchema, nameSchema } from "@/lib/auth/rules";
import { coupleCreateSchema } from "@/lib/couples/schemas";
import { BIO_MAX, imageUrlField, MESSAGES, occupationField } from "@/lib/onboarding/rules";

/** The person's own fields (profile update and profile completion). */
export const userFields = z.object({
  firstName: nameSchema("First name"),
  lastName: nameSchema("Last name"),
  dateOfBirth: dateOfBirthSchema,
  occupation: occupationField,
  bio: z.string({ error: MESSAGES.bioTooLong }).trim().max(BIO_MAX, MESSAGES.bioTooLong),
  avatarUrl: imageUrlField.nullable(),
});

/** POST /api/v2/profile/complete-setup (spec section 3, profile completion payload). */
export const profileCompletionSchema = z.object({
  userData: z.preprocess((value) => value ?? {}, userFields.partial({ bio: true, avatarUrl: true })),
  coupleData: coupleCreateSchema,
});
export type ProfileCompletionInput = z.output<typeof profileCompletionSchema>;

export type CompletionUser = {
  firstName: string | null;
  lastName: string | null;
  dateOfBirth: string | null;
  bio: string | null;
  interests: readonly string[] | null;
  avatarUrl: string | null;
};

/** Spec section 5: 33 for the basics, 33 for any of bio, interests or photo, 34 for an active couple. */
export function profileCompletionPercentage(user: CompletionUser, couple: { status: string } | null): number {
  let percentage = 0;
  if (user.firstName && user.lastName && user.dateOfBirth) percentage += 33;
  if (user.bio?.trim() || (user.interests?.length ?? 0) > 0 || user.avatarUrl) percentage += 33;
  if (couple?.status === "active") percentage += 34;
  return percentage;
}
