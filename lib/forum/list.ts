import "server-only";
import { and, asc, desc, eq, gt, isNull, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { couples, forumPosts, users } from "@/db/schema";
import { authSecret } from "@/lib/env";
import { notBlockedBetween } from "@/lib/safety/blocks";
import { encodeCursor } from "./cursor";
import type { ListPostsQuery } from "./schemas";
import { keepTopWindowFresh } from "./top";
import type { ForumActor } from "./actor";
import { listReactions, mentionsOf } from "./extras";
import { keyValue, readCursor } from "./keyset";
import { boundingBox, couplePlace, distanceFrom, locationRequired } from "./local";
import { postColumns, shapePost, type ForumPost, type KeysetPagination } from "./shape";

/**
 * A page of posts (issue 11, `GET /api/forum/posts`): listed posts (not deleted, hidden or
 * removed) of couples not blocked either way, in the scope, by topic and search. With `q` the
 * order is the search rank; otherwise Latest (last activity), New (creation), Top (reactions on
 * the post in the last 7 days; posts without any are not listed) or, locally, Nearest. Keyset pagination on (sort key, id): no
 * OFFSET, and rows added meanwhile neither repeat nor shift the next page (Top's scores can
 * move between pages; its keyset still never repeats a (score, id) pair).
 * A local list measures from the viewer's couple place at city level at most to posts' stored
 * city-level points, and shows a band, never a distance.
 */
export async function listPosts(
  db: Db,
  actor: ForumActor,
  query: ListPostsQuery,
  /** One couple's posts only (their profile's recent posts, issue 12). */
  only: { coupleId?: string } = {},
): Promise<{ data: ForumPost[]; pagination: KeysetPagination }> {
  const local = query.scope === "local";
  const order = query.q ? "rank" : query.sort;
  const context = ["posts", query.scope, order, query.topic ?? "", query.q ?? "", local ? query.radius : "", only.coupleId ?? ""].join(":");
  const after = readCursor(context, query.cursor);
  const centre = local ? await couplePlace(db, actor.coupleId) : null;
  if (local && !centre) throw locationRequired();

  const distance = centre ? distanceFrom(centre) : null;
  const tsQuery = query.q ? sql`websearch_to_tsquery('english', ${query.q})` : null;
  // Top reads each post's stored 7-day count (lib/forum/top.ts) from its keyset index.
  if (order === "top") await keepTopWindowFresh(db);
  const sortKey: SQL | AnyPgColumn =
    order === "rank"
      ? sql`ts_rank(${forumPosts.searchVector}, ${tsQuery})::double precision`
      : order === "nearest"
        ? distance!
        : order === "top"
          ? forumPosts.topScore
          : order === "new"
            ? forumPosts.createdAt
            : forumPosts.lastActivityAt;
  const ascending = order === "nearest";
  // Top's key is the integer column itself, so the row comparison stays on its index.
  // Nearest: the cursor names the last post only and its distance is measured again here (a
  // cursor is signed, not sealed: it must not carry a distance, which leaves only as a band).
  const afterKey = !after
    ? null
    : order === "nearest"
      ? sql`(select ${distance!} from ${forumPosts} where ${forumPosts.id} = ${after.id}::uuid)`
      : order === "top" && typeof after.sortKey === "number"
        ? sql`${Math.trunc(after.sortKey)}::int`
        : keyValue(after.sortKey);

  const conditions: (SQL | undefined)[] = [
    eq(forumPosts.scope, query.scope),
    isNull(forumPosts.deletedAt),
    isNull(forumPosts.hiddenAt),
    isNull(forumPosts.removedAt),
    query.topic ? eq(forumPosts.topic, query.topic) : undefined,
    only.coupleId ? eq(forumPosts.coupleId, only.coupleId) : undefined,
    tsQuery ? sql`${forumPosts.searchVector} @@ ${tsQuery}` : undefined,
    notBlockedBetween(actor.coupleId, forumPosts.coupleId),
    centre ? boundingBox(centre, query.radius) : undefined,
    distance ? sql`${distance} <= ${query.radius}` : undefined,
    // Top lists posts with reactions in the window only: a post nobody reacted to is not "top".
    order === "top" ? gt(forumPosts.topScore, 0) : undefined,
    after ? (ascending ? sql`(${sortKey}, ${forumPosts.id}) > (${afterKey}, ${after.id}::uuid)` : sql`(${sortKey}, ${forumPosts.id}) < (${afterKey}, ${after.id}::uuid)`) : undefined,
  ];
  // The page is chosen from forum_posts alone (every condition is on its columns), and only its
  // rows are then joined to their authors: a search with many matches never joins them all.
  const chosen = db
    .select({ id: sql<string>`${forumPosts.id}`.as("page_id"), sortKey: sql<unknown>`${sortKey}`.as("sort_key"), distanceKm: sql<number | null>`${distance ?? sql`null::double precision`}`.as("distance_km") })
    .from(forumPosts)
    .where(and(...conditions))
    .orderBy(...(ascending ? [asc(sortKey), asc(forumPosts.id)] : [desc(sortKey), desc(forumPosts.id)]))
    .limit(query.limit + 1)
    .as("page");
  const rows = (
    await db
      .select({ ...postColumns, sortKey: chosen.sortKey, distanceKm: chosen.distanceKm })
      .from(chosen)
      .innerJoin(forumPosts, eq(forumPosts.id, chosen.id))
      .leftJoin(users, eq(users.id, forumPosts.authorUserId))
      .innerJoin(couples, eq(couples.id, forumPosts.coupleId))
      .orderBy(...(ascending ? [asc(chosen.sortKey), asc(forumPosts.id)] : [desc(chosen.sortKey), desc(forumPosts.id)]))
  ).map((row) => ({ ...row, distanceKm: row.distanceKm === null ? null : Number(row.distanceKm) }));

  const page = rows.slice(0, query.limit);
  const ids = page.map((row) => row.id);
  const [reactionsOf, mentions] = await Promise.all([listReactions(db, actor, ids), mentionsOf(db, actor, ids, false)]);
  const hasMore = rows.length > query.limit;
  const last = page.at(-1);
  const lastKey = (row: (typeof rows)[number]): Date | number => (order === "new" ? row.createdAt : order === "latest" ? row.lastActivityAt : order === "nearest" ? 0 : Number(row.sortKey));
  return {
    data: page.map((row) =>
      shapePost(row, { ...reactionsOf(row.id), mentions: mentions({ postId: row.id, replyId: null }), distanceKm: row.distanceKm === null ? null : Number(row.distanceKm) }),
    ),
    pagination: { limit: query.limit, hasMore, nextCursor: hasMore && last ? encodeCursor(authSecret(), context, { sortKey: lastKey(last), id: last.id }) : null },
  };
}
