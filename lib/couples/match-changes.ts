/**
 * Lists kept per couple (discover's suggestions, the directory's 'most in common' ranking) take in
 * the couples whose match inputs changed since they were computed (couples.match_changed_at:
 * joined, became discoverable, changed interests (a partner's own too: discover's 'all four'),
 * styles or place, a partner joined or left; migrations 0017 and 0069; a walk of
 * couples_discoverable_match_changed_idx), at most MATCH_CHANGES_TAKEN; past that many, a list is
 * computed again.
 */
import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { couples } from "@/db/schema";

export const MATCH_CHANGES_TAKEN = 100;

/**
 * SQL: the couple's match inputs changed after `computedAt`, or within a minute before it: a
 * change committed while the list was computed (after its read) still counts.
 */
export const matchChangedSince = (computedAt: SQL): SQL => sql`${couples.matchChangedAt} > ${computedAt} - interval '1 minute'`;
