/**
 * How many interests a person or a couple picks (spec section 5), and how long the catalogue may
 * be cached: pure and browser-safe. The catalogue itself is catalogue.ts.
 */
export const INTERESTS_MIN = 5;
export const INTERESTS_MAX = 25;

export const INTEREST_MESSAGES = {
  interestsTooFew: `Please select at least ${INTERESTS_MIN} interests`,
  interestsTooMany: `Please select no more than ${INTERESTS_MAX} interests`,
  interestUnknown: "Please select interests from the list",
} as const;

/**
 * The catalogue changes only with a deploy or a seed: browsers may reuse it for 5 minutes and
 * shared caches for an hour, serving a stale copy for a day while they refresh it. It is the
 * same for everyone (no cookie is read), so "public" is safe.
 */
export const INTERESTS_CACHE_CONTROL = "public, max-age=300, s-maxage=3600, stale-while-revalidate=86400";
