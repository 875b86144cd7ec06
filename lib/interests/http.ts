/**
 * The catalogue changes only with a deploy or a seed: browsers may reuse it for 5 minutes and
 * shared caches for an hour, serving a stale copy for a day while they refresh it. It is the
 * same for everyone (no cookie is read), so "public" is safe.
 */
export const INTERESTS_CACHE_CONTROL = "public, max-age=300, s-maxage=3600, stale-while-revalidate=86400";
