import "server-only";
import { and, desc, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { forumPosts } from "@/db/schema";
import type { Cursor } from "@/lib/pagination/cursor";

/**
 * Search ranks at most this many matches: the most recent ones. Ranking every match made a
 * search's cost grow with the table (a common word matches a fixed share of all posts); the
 * product's promise is "the best matches among the 500 most recent", and Postgres picks, per term,
 * the cheaper way to find them: the GIN index for a rare term (all its matches, then the 500
 * newest), or the New index read backwards, stopping at the 500th match, for a common one. So
 * the rows read are at most min(matches, 500 / share of posts matching): flat for a given term
 * as the forum grows. (Searches are planned for each term: lib/forum/list.ts does not prepare them.)
 */
export const SEARCH_CANDIDATES = 500;

/**
 * The page subquery of a search: `conditions` (every filter of the list, on forum_posts) choose
 * the candidates; they are ranked by ts_rank and paged by (rank, id). The first page pins the
 * window to its newest match (`pinned_ms`, carried by the cursor), so later pages rank among the
 * same candidates while newer posts arrive: no duplicates and no gaps.
 */
export function searchPage(db: Db, conditions: (SQL | undefined)[], tsQuery: SQL, after: Cursor | null, limit: number) {
  const candidates = db
    .select({ id: forumPosts.id, searchVector: forumPosts.searchVector, createdAt: forumPosts.createdAt })
    .from(forumPosts)
    .where(and(...conditions, after?.pinnedAt ? sql`${forumPosts.createdAt} <= ${after.pinnedAt.toISOString()}::timestamptz` : undefined))
    .orderBy(desc(forumPosts.createdAt), desc(forumPosts.id))
    .limit(SEARCH_CANDIDATES)
    .as("candidates");
  const rank = sql`ts_rank(${candidates.searchVector}, ${tsQuery})::double precision`;
  return db
    .select({
      id: sql<string>`${candidates.id}`.as("page_id"),
      sortKey: sql<unknown>`${rank}`.as("sort_key"),
      distanceKm: sql<number | null>`null::double precision`.as("distance_km"),
      pinnedMs: sql<number | null>`extract(epoch from max(${candidates.createdAt}) over ()) * 1000`.as("pinned_ms"),
    })
    .from(candidates)
    .where(after ? sql`(${rank}, ${candidates.id}) < (${after.sortKey}::double precision, ${after.id}::uuid)` : undefined)
    .orderBy(desc(rank), desc(candidates.id))
    .limit(limit + 1)
    .as("page");
}
