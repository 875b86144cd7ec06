/**
 * The person's own field limits and messages (spec section 5) and the completion percentage:
 * pure and browser-safe, so the forms (onboarding now, settings later) and the server share them.
 */
export const OCCUPATION_MAX = 100;

export const PROFILE_MESSAGES = {
  photoRequired: "Please upload your profile photo",
  occupationRequired: "Occupation is required",
  occupationTooLong: `Occupation must be no more than ${OCCUPATION_MAX} characters`,
  occupationNotAllowed: "Occupation contains characters that are not allowed",
} as const;

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
