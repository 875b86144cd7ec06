/**
 * The person's own field limits and messages (spec section 5) and the completion percentage:
 * pure and browser-safe, so the forms (onboarding now, settings later) and the server share them.
 */
export const OCCUPATION_MAX = 100;

export const PROFILE_MESSAGES = {
  /** A profile save that failed without a message of the server's (spec section 8). */
  updateFailed: "Failed to update profile",
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

/** The three parts of the completion (spec section 5), each with its points and whether it is done. */
export type CompletionPart = { key: "basics" | "about" | "couple"; points: number; done: boolean };

/** Spec section 5: 33 for the basics, 33 for any of bio, interests or photo, 34 for an active couple. */
export function completionParts(user: CompletionUser, couple: { status: string } | null): CompletionPart[] {
  return [
    { key: "basics", points: 33, done: Boolean(user.firstName && user.lastName && user.dateOfBirth) },
    { key: "about", points: 33, done: Boolean(user.bio?.trim() || (user.interests?.length ?? 0) > 0 || user.avatarUrl) },
    { key: "couple", points: 34, done: couple?.status === "active" },
  ];
}

/** The completion percentage: the points of the parts done. */
export function profileCompletionPercentage(user: CompletionUser, couple: { status: string } | null): number {
  return completionParts(user, couple).reduce((sum, part) => sum + (part.done ? part.points : 0), 0);
}
