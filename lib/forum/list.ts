import "server-only";
import { and, asc, desc, eq, gt, isNull, sql, type SQL } from "drizzle-orm";
import { alias, type AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { literalLimit, nameOnClient, placeholderSql } from "@/db/prepared";
import { couples, forumMentions, forumPosts, forumReactions, users } from "@/db/schema";
import { liveSessionUser, type SessionRead } from "@/lib/auth/sessions";
import { readerAccountColumns, readerJoins, readerOf, sessionWithAccount } from "@/lib/auth/users";
import { cursorAfter, readCursor } from "@/lib/pagination/cursor";
import { emptyPage, keysetPage, type KeysetPage } from "@/lib/pagination/page";
import { coupleOfUser, notBlockedBetween } from "@/lib/safety/blocks";
import { seenByViewer } from "@/lib/safety/visibility";
import { PAGE_SIZE_DEFAULT, reactionCounts, type ReactionKind } from "./rules";
import { FORUM_MESSAGES, type ListPostsQuery } from "./schemas";
import { keepTopWindowFresh } from "./top";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { searchPage } from "./search";
import { boundingBox, distanceFrom, locationRequired, placeShownTo, userCouplePlace, withinBox } from "./local";
import type { ForumPlace } from "./place";
import { postColumns, shapePost, type ForumMention, type ForumPost } from "./projections";

/**
 * Who reads a list: the couple is found from the person in the list's own statement. A caller that
 * has read the couple's place already (the dashboard, with its stored lists) hands it as `place`
 * (cityLevelPlace of it), so a local list does not read it again.
 */
export type ListViewer = Pick<ActingCouple, "userId"> & { place?: ForumPlace | null };
/** Or the live session of a person: the route's one round trip (listPostsBySession). */
type Reader = ListViewer | { sessionId: string };
export type PostPage = KeysetPage<ForumPost>;

const mentioned = alias(couples, "mentioned");

/**
 * SQL: a listed post's reactions (on the post itself) as JSON `[[kind, count, mine], ...]`, one
 * entry per kind; couples blocked either way are not counted. Who reacted is the thread's detail
 * (lib/forum/reactions.ts): naming them here joined two rows per reaction for every listed post.
 */
function reactionsJson(viewerCouple: SQL, userId: SQL, postId: SQL): SQL<[ReactionKind, number, boolean][]> {
  return sql`(select coalesce(json_agg(json_build_array(k.kind, k.n, k.mine)), '[]'::json) from (
    select ${forumReactions.kind} as kind, count(*)::int as n, bool_or(${forumReactions.userId} = ${userId}) as mine
    from ${forumReactions}
    where ${forumReactions.postId} = ${postId} and ${forumReactions.replyId} is null and ${notBlockedBetween(viewerCouple, forumReactions.coupleId)}
    group by ${forumReactions.kind}) k)`;
}

/**
 * SQL: a listed post's validated mentions as JSON `[[coupleId, name], ...]`, of the couples the
 * viewer may see (lib/safety/visibility.ts): a couple that hid or was suspended since is plain text.
 */
function mentionsJson(viewerCouple: SQL, postId: SQL): SQL<[string, string][]> {
  return sql`(select coalesce(json_agg(json_build_array(${mentioned.id}, ${mentioned.coupleName})), '[]'::json)
    from ${forumMentions} join ${couples} ${mentioned} on ${mentioned.id} = ${forumMentions.mentionedCoupleId}
    where ${forumMentions.postId} = ${postId} and ${forumMentions.replyId} is null
      and ${notBlockedBetween(viewerCouple, mentioned.id)} and ${seenByViewer(viewerCouple, mentioned)})`;
}

function listExtras(reactions: [ReactionKind, number, boolean][], mentions: [string, string][]) {
  return {
    reactions: reactionCounts(reactions.map(([kind, count]) => ({ kind, count }))),
    myReactions: reactions.filter(([, , mine]) => mine).map(([kind]) => kind),
    mentions: mentions.map(([coupleId, name]): ForumMention => ({ coupleId, name })),
  };
}

/** Lists' statements (not searches), prepared once per shape (the Map's key) for each database handle. */
const preparedLists = new WeakMap<Db, Map<string, unknown>>();

function preparedList<T extends { prepare: (name: string) => { getQuery: () => { sql: string } } }>(
  db: Db,
  shape: string,
  build: () => T,
): ReturnType<T["prepare"]> {
  let byShape = preparedLists.get(db);
  if (!byShape) preparedLists.set(db, (byShape = new Map()));
  if (!byShape.has(shape)) {
    const prepared = build().prepare("forum_list");
    nameOnClient(db, prepared.getQuery().sql);
    byShape.set(shape, prepared);
  }
  return byShape.get(shape) as ReturnType<T["prepare"]>;
}

/**
 * A page of posts (`GET /api/forum/posts`): listed posts (not deleted, hidden or
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
  viewer: ListViewer,
  query: ListPostsQuery,
  /** One couple's posts only (their profile's recent posts). */
  only: { coupleId?: string } = {},
): Promise<PostPage> {
  return (await readList(db, viewer, query, only)).page;
}

/**
 * `GET /api/forum/posts`'s session read: a global list (not a search) is read in the statement
 * that checks the session and takes the account's flags along, one round trip in all (the route
 * checks the flags before anything leaves). No row means an empty page or no live session: the
 * session's own read tells which. Anything else checks the session first: a local list (its
 * centre, the couple's place, is read before it) or a search (planned per term), and a query that
 * does not parse (the route answers it with 400 once the session is known live).
 */
export const listPostsBySession: SessionRead<PostPage, ListPostsQuery> = async (db, sessionId, input) => {
  const query = await input();
  if (!query || query.scope === "local" || query.q) {
    const found = await sessionWithAccount(db, sessionId);
    if (!query || !found?.account?.flags.profileComplete)
      return found && { ...found, value: emptyPage<ForumPost>(query?.limit ?? PAGE_SIZE_DEFAULT) };
    return { ...found, value: await listPosts(db, { userId: found.userId }, query) };
  }
  const { page, reader } = await readList(db, { sessionId }, query, {});
  if (!reader) {
    const found = await sessionWithAccount(db, sessionId);
    return found && { ...found, value: emptyPage<ForumPost>(query.limit) };
  }
  return { ...reader, value: page };
};

async function readList(db: Db, reader: Reader, query: ListPostsQuery, only: { coupleId?: string }) {
  const bySession = "sessionId" in reader;
  const local = query.scope === "local";
  const order = query.q ? "rank" : query.sort;
  const context = ["posts", query.scope, order, query.topic ?? "", query.q ?? "", local ? query.radius : "", only.coupleId ?? ""].join(":");
  const after = readCursor(context, query.cursor, FORUM_MESSAGES.cursorInvalid);
  const centre = local && !bySession ? (reader.place !== undefined ? reader.place : await userCouplePlace(db, reader.userId)) : null;
  if (local && !centre) throw locationRequired();

  const box = centre ? boundingBox(centre, query.radius) : null;
  const tsQuery = query.q ? sql`websearch_to_tsquery('english', ${query.q})` : null;
  // Top reads each post's stored 7-day count (lib/forum/top.ts) from its keyset index.
  if (order === "top") await keepTopWindowFresh(db);
  // A list's statement is built once per shape and process, its values (a local list's centre,
  // box and radius too) bound when it runs; a search depends on its term: built per request.
  const reusable = !tsQuery;
  if (bySession && (local || tsQuery)) throw new Error("a list read by session is a global list, not a local list or a search");
  const afterKey =
    !after || order === "nearest"
      ? undefined
      : order === "top"
        ? Math.trunc(Number(after.sortKey))
        : after.sortKey instanceof Date
          ? after.sortKey.toISOString()
          : after.sortKey;
  const session = bySession ? { sid: reader.sessionId, now: new Date().toISOString() } : {};
  const values = {
    viewer: bySession ? undefined : reader.userId,
    ...session,
    topic: query.topic,
    only: only.coupleId,
    afterKey,
    afterId: after?.id,
    latitude: centre?.latitude,
    longitude: centre?.longitude,
    radius: query.radius,
    south: box?.south,
    north: box?.north,
    west: box?.spans[0]?.[0],
    east: box?.spans[0]?.[1],
    west2: box?.spans[1]?.[0],
    east2: box?.spans[1]?.[1],
  };
  const bind = (name: keyof typeof values): SQL => (reusable ? placeholderSql(name) : sql`${values[name]}`);
  // By session, the viewer is the live session's person (no row at all when it is not live).
  // The viewer and their couple are found once, in the statement's own CTE, so a global list is
  // one round trip; every visibility rule below reads them from it (each use an init plan over
  // one row) rather than repeating the session's and the couple's subqueries and their values.
  const viewerRow = db
    .$with("list_viewer", { userId: sql<string>`user_id`.as("user_id"), coupleId: sql<string | null>`couple_id`.as("couple_id") })
    .as(
      sql`select v.user_id, ${coupleOfUser(sql`v.user_id`)} as couple_id from (select ${bySession ? liveSessionUser() : bind("viewer")}::uuid as user_id) v`,
    );
  const viewerId = sql`(select user_id from ${viewerRow})`;
  const viewerCouple = sql`(select couple_id from ${viewerRow})`;
  const distance = centre ? distanceFrom({ latitude: bind("latitude"), longitude: bind("longitude") }) : null;

  const [readerUser, readerCouple] = readerJoins(bySession ? viewerId : null);
  const build = () => {
    // A search's rank is computed over its candidates (lib/forum/search.ts), not here.
    const sortKey: SQL | AnyPgColumn =
      order === "nearest"
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
    const afterSql = !after
      ? null
      : order === "nearest"
        ? sql`(select ${distance!} from ${forumPosts} where ${forumPosts.id} = ${bind("afterId")}::uuid)`
        : sql`${bind("afterKey")}::${sql.raw(order === "top" ? "int" : after.sortKey instanceof Date ? "timestamptz" : "double precision")}`;
    const conditions: (SQL | undefined)[] = [
      // Literals (both validated), so a prepared list keeps one generic plan on its partial indexes.
      sql`${forumPosts.scope} = ${sql.raw(`'${query.scope}'`)}`,
      isNull(forumPosts.deletedAt),
      isNull(forumPosts.hiddenAt),
      isNull(forumPosts.removedAt),
      query.topic ? sql`${forumPosts.topic} = ${bind("topic")}` : undefined,
      only.coupleId ? sql`${forumPosts.coupleId} = ${bind("only")}` : undefined,
      tsQuery ? sql`${forumPosts.searchVector} @@ ${tsQuery}` : undefined,
      notBlockedBetween(viewerCouple, forumPosts.coupleId),
      box
        ? withinBox({
            south: bind("south"),
            north: bind("north"),
            spans: box.spans.map((_, i): [SQL, SQL] => (i === 0 ? [bind("west"), bind("east")] : [bind("west2"), bind("east2")])),
          })
        : undefined,
      // A couple that hid its place, or itself, takes its local posts' place with it.
      query.scope === "local" ? placeShownTo(viewerCouple) : undefined,
      distance ? sql`${distance} <= ${bind("radius")}` : undefined,
      // Top lists posts with reactions in the window only: a post nobody reacted to is not "top".
      order === "top" ? gt(forumPosts.topScore, 0) : undefined,
    ];
    const position = !after
      ? undefined
      : sql`(${sortKey}, ${forumPosts.id}) ${sql.raw(ascending ? ">" : "<")} (${afterSql}, ${bind("afterId")}::uuid)`;
    // The page is chosen from forum_posts alone (every condition is on its columns), and only its
    // rows are then joined to their authors, reactions and mentions: a search with many matches
    // never joins them all. One statement: no round trip per kind of detail.
    const chosen = tsQuery
      ? searchPage(db, conditions, tsQuery, after, query.limit)
      : db
          .select({
            id: sql<string>`${forumPosts.id}`.as("page_id"),
            sortKey: sql<unknown>`${sortKey}`.as("sort_key"),
            distanceKm: sql<number | null>`${distance ?? sql`null::double precision`}`.as("distance_km"),
            pinnedMs: sql<number | null>`null::double precision`.as("pinned_ms"),
          })
          .from(forumPosts)
          .where(and(...conditions, position))
          .orderBy(...(ascending ? [asc(sortKey), asc(forumPosts.id)] : [desc(sortKey), desc(forumPosts.id)]))
          .limit(literalLimit(query.limit + 1))
          .as("page");
    return db
      .with(viewerRow)
      .select({
        ...postColumns(viewerCouple),
        sortKey: chosen.sortKey,
        distanceKm: chosen.distanceKm,
        pinnedMs: chosen.pinnedMs,
        reactions: reactionsJson(viewerCouple, viewerId, sql`${chosen.id}`),
        mentions: mentionsJson(viewerCouple, sql`${chosen.id}`),
        // The reader's account, flags and acting couple (by session).
        account: readerAccountColumns(),
      })
      .from(chosen)
      .innerJoin(forumPosts, eq(forumPosts.id, chosen.id))
      .leftJoin(users, eq(users.id, forumPosts.authorUserId))
      .leftJoin(couples, eq(couples.id, forumPosts.coupleId))
      .leftJoin(...readerUser)
      .leftJoin(...readerCouple)
      .orderBy(...(ascending ? [asc(chosen.sortKey), asc(forumPosts.id)] : [desc(chosen.sortKey), desc(forumPosts.id)]));
  };
  // Prepared (a named statement), the server keeps one plan per shape of list: planning this
  // statement costs more than running it. A local box split at the antimeridian is a shape of its
  // own. Searches are planned afresh: how to find a term's matches depends on how common it is
  // (lib/forum/search.ts).
  const shape = [query.scope, order, !!query.topic, !!only.coupleId, !!after, query.limit, bySession, box?.spans.length ?? 0].join(":");
  const rows = reusable ? await preparedList(db, shape, build).execute(values) : await build();

  // A search keeps the window its first page pinned (lib/forum/search.ts).
  const pinnedMs = after?.pinnedAt?.getTime() ?? (rows[0]?.pinnedMs == null ? null : Number(rows[0].pinnedMs));
  const pinnedAt = pinnedMs === null ? undefined : new Date(pinnedMs);
  const lastKey = (row: (typeof rows)[number]): Date | number =>
    order === "new" ? row.createdAt : order === "latest" ? row.lastActivityAt : order === "nearest" ? 0 : Number(row.sortKey);
  return {
    page: keysetPage(
      rows,
      query.limit,
      (row) =>
        shapePost(row, { ...listExtras(row.reactions, row.mentions), distanceKm: row.distanceKm === null ? null : Number(row.distanceKm) }),
      (last) => cursorAfter(context, { sortKey: lastKey(last), id: last.id, pinnedAt }),
    ),
    reader: readerOf(rows[0]?.account),
  };
}
