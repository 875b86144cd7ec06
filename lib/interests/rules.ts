/**
 * How many interests a person or a couple picks (spec section 5): pure and browser-safe. The
 * catalogue itself is catalogue.ts.
 */
export const INTERESTS_MIN = 5;
export const INTERESTS_MAX = 25;

export const INTEREST_MESSAGES = {
  interestsTooFew: `Please select at least ${INTERESTS_MIN} interests`,
  interestsTooMany: `Please select no more than ${INTERESTS_MAX} interests`,
  interestUnknown: "Please select interests from the list",
} as const;
