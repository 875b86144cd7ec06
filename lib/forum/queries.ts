import "server-only";
import { and, asc, desc, eq, gt, inArray, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import { alias, type AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { couples, forumMentions, forumPosts, forumReactions, forumReplies, locations, users } from "@/db/schema";
import { authSecret } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { partnerOf } from "@/lib/couples/partner";
import { locationColumns } from "@/lib/locations/place";
import { notBlockedBetween } from "@/lib/safety/blocks";
import { decodeCursor, encodeCursor, type Cursor } from "./cursor";
import { distanceBand, FORUM_TEXTS, REACTED_BY_SHOWN, reactionCounts, REACTION_KINDS, showsEdited, signature, type ReactionCounts, type ReactionKind } from "./rules";
import { cityLevelPlace, type ForumPlace } from "./place";
import { FORUM_MESSAGES, type ListPostsQuery, type ThreadQuery } from "./schemas";
import { excerpt } from "./text";
import { keepTopWindowFresh } from "./top";

/** The signed-in person as the forum sees them: every read and write is scoped by their couple. */
export type ForumActor = { userId: string; firstName: string; coupleId: string; coupleName: string; coupleImageUrl: string | null; role: "member" | "admin" };

export async function forumActor(db: Db, userId: string): Promise<ForumActor> {
  const [row] = await db
    .select({ userId: users.id, firstName: users.firstName, role: users.role, coupleId: couples.id, coupleName: couples.coupleName, coupleImageUrl: couples.profileImageUrl })
    .from(users)
    .innerJoin(couples, partnerOf(users.id))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw new AppError("NO_COUPLE", "You need a couple profile to take part in the forum.");
  return row;
}

/** `userId` is null once the author deleted their account (then the names say "Deleted member"). */
export type ForumAuthor = { userId: string | null; firstName: string; coupleId: string; coupleName: string; coupleImageUrl: string | null; isVerified: boolean; signature: string };
export type ForumMention = { coupleId: string; name: string };
/**
 * Who reacted with each kind, as signatures ("Maya of Maya & Theo"), earliest first and at most
 * REACTED_BY_SHOWN of them (the count says how many more): shown on hover or focus. Couples
 * blocked either way are neither listed nor counted.
 */
export type ReactedBy = Record<ReactionKind, string[]>;
const noneReacted = (): ReactedBy => Object.fromEntries(REACTION_KINDS.map((kind) => [kind, []])) as unknown as ReactedBy;

export type ForumPost = {
  id: string;
  title: string;
  body: string;
  excerpt: string;
  topic: string;
  scope: "global" | "local";
  photos: string[];
  author: ForumAuthor;
  place: string | null;
  distanceBand: string | null;
  replyCount: number;
  reactions: ReactionCounts;
  myReactions: ReactionKind[];
  reactedBy: ReactedBy;
  mentions: ForumMention[];
  createdAt: string;
  editedAt: string | null;
  lastActivityAt: string;
  deleted: boolean;
  removed: boolean;
  /** Hidden by reports until reviewed: only its own couple still sees it, with this flag. */
  hidden: boolean;
};

export type ForumQuote = { id: string; author: { firstName: string; coupleName: string } | null; excerpt: string; deleted: boolean };

export type ForumReply = {
  id: string;
  postId: string;
  body: string;
  quote: ForumQuote | null;
  author: ForumAuthor;
  reactions: ReactionCounts;
  myReactions: ReactionKind[];
  reactedBy: ReactedBy;
  mentions: ForumMention[];
  createdAt: string;
  editedAt: string | null;
  deleted: boolean;
  removed: boolean;
  hidden: boolean;
};

export type KeysetPagination = { limit: number; nextCursor: string | null; hasMore: boolean };

const authorColumns = {
  authorUserId: users.id,
  firstName: users.firstName,
  coupleId: couples.id,
  coupleName: couples.coupleName,
  coupleImageUrl: couples.profileImageUrl,
  isVerified: couples.isVerified,
};

const postColumns = {
  id: forumPosts.id,
  title: forumPosts.title,
  body: forumPosts.body,
  topic: forumPosts.topic,
  scope: forumPosts.scope,
  photos: forumPosts.photos,
  place: forumPosts.place,
  latitude: forumPosts.latitude,
  longitude: forumPosts.longitude,
  replyCount: forumPosts.replyCount,
  createdAt: forumPosts.createdAt,
  editedAt: forumPosts.editedAt,
  lastActivityAt: forumPosts.lastActivityAt,
  deletedAt: forumPosts.deletedAt,
  hiddenAt: forumPosts.hiddenAt,
  removedAt: forumPosts.removedAt,
  ...authorColumns,
};

/** Posts with their author and couple joined in. */
const selectPosts = (db: Db) =>
  db.select(postColumns).from(forumPosts).leftJoin(users, eq(users.id, forumPosts.authorUserId)).innerJoin(couples, eq(couples.id, forumPosts.coupleId));
type PostRow = Awaited<ReturnType<typeof selectPosts>>[number];

const author = (row: Pick<PostRow, keyof typeof authorColumns>): ForumAuthor => ({
  userId: row.authorUserId,
  firstName: row.firstName ?? FORUM_TEXTS.deletedMember,
  coupleId: row.coupleId,
  coupleName: row.coupleName,
  coupleImageUrl: row.coupleImageUrl,
  isVerified: row.isVerified,
  signature: row.firstName === null ? FORUM_TEXTS.deletedMember : signature(row.firstName, row.coupleName),
});

/** Content that is gone (by its author or a moderator) keeps its place, never its words. */
const gone = (row: { deletedAt: Date | null; removedAt: Date | null }) => row.deletedAt !== null || row.removedAt !== null;

function shapePost(
  row: PostRow,
  extras: { reactions: ReactionCounts; myReactions: ReactionKind[]; reactedBy: ReactedBy; mentions: ForumMention[]; distanceKm?: number | null },
): ForumPost {
  const blank = gone(row);
  return {
    id: row.id,
    title: blank ? (row.removedAt ? FORUM_TEXTS.removedByModerator : FORUM_TEXTS.deletedPost) : row.title,
    body: blank ? "" : row.body,
    excerpt: blank ? "" : excerpt(row.body),
    topic: row.topic,
    scope: row.scope,
    photos: blank ? [] : row.photos,
    author: author(row),
    place: row.place,
    distanceBand: extras.distanceKm == null ? null : distanceBand(extras.distanceKm),
    replyCount: row.replyCount,
    reactions: extras.reactions,
    myReactions: extras.myReactions,
    reactedBy: extras.reactedBy,
    mentions: blank ? [] : extras.mentions,
    createdAt: row.createdAt.toISOString(),
    editedAt: showsEdited(row.createdAt, row.editedAt) ? row.editedAt!.toISOString() : null,
    lastActivityAt: row.lastActivityAt.toISOString(),
    deleted: row.deletedAt !== null,
    removed: row.removedAt !== null,
    hidden: row.hiddenAt !== null,
  };
}

/* ---------- Places of the local forum ---------- */

const EARTH_RADIUS_KM = 6371.0088;
const KM_PER_DEGREE = (Math.PI * EARTH_RADIUS_KM) / 180;

/** The couple's place for the local forum (posting, and the centre of the list), or null without a usable one. */
export async function couplePlace(db: Db, coupleId: string): Promise<ForumPlace | null> {
  const [row] = await db
    .select(locationColumns)
    .from(locations)
    .where(and(eq(locations.entityType, "couple"), eq(locations.entityId, coupleId)))
    .limit(1);
  return row ? cityLevelPlace(row) : null;
}

const locationRequired = () => new AppError("LOCATION_REQUIRED", FORUM_TEXTS.noLocation);

/** Haversine between a post's stored (already snapped) point and the centre, in km. */
function distanceFrom(centre: { latitude: number; longitude: number }): SQL<number> {
  const lat = sql`${centre.latitude}::double precision`;
  const lng = sql`${centre.longitude}::double precision`;
  return sql<number>`(2 * ${sql.raw(String(EARTH_RADIUS_KM))} * asin(least(1, sqrt(
    power(sin(radians(${forumPosts.latitude} - ${lat}) / 2), 2)
    + cos(radians(${lat})) * cos(radians(${forumPosts.latitude})) * power(sin(radians(${forumPosts.longitude} - ${lng}) / 2), 2)))))`.mapWith(Number);
}

/**
 * The bounding box around the centre that the GiST point index (`forum_posts_local_box_idx`)
 * narrows first: one box, or two across the antimeridian. The scope is written as a literal, so
 * the partial index applies to generic plans of the prepared statement too.
 */
function boundingBox(centre: { latitude: number; longitude: number }, radiusKm: number): SQL {
  const latHalf = radiusKm / KM_PER_DEGREE;
  const cos = Math.cos((Math.min(89, Math.abs(centre.latitude) + latHalf) * Math.PI) / 180);
  const lngHalf = Math.min(180, radiusKm / (KM_PER_DEGREE * cos));
  const lat = [Math.max(-90, centre.latitude - latHalf), Math.min(90, centre.latitude + latHalf)] as const;
  const box = (lo: number, hi: number) =>
    sql`point(${forumPosts.longitude}, ${forumPosts.latitude}) <@ box(point(${lo}::float8, ${lat[0]}::float8), point(${hi}::float8, ${lat[1]}::float8))`;
  const lo = centre.longitude - lngHalf;
  const hi = centre.longitude + lngHalf;
  const within = lngHalf >= 180 ? box(-180, 180) : lo < -180 ? sql`(${box(lo + 360, 180)} or ${box(-180, hi)})` : hi > 180 ? sql`(${box(lo, 180)} or ${box(-180, hi - 360)})` : box(lo, hi);
  return sql`${forumPosts.scope} = 'local' and ${within}`;
}

/* ---------- Reactions and mentions of a page, in one query each ---------- */

type Target = { postId: string; replyId: string | null };
const targetKey = (target: Target) => target.replyId ?? `post:${target.postId}`;

/**
 * SQL: a reaction's couple may be named in "who reacted": an active, visible couple, or the
 * viewer's own. A hidden couple's reactions are counted but never named to other couples.
 */
const namedReactor = (actor: ForumActor): SQL =>
  sql`((${couples.status} = 'active' and ${couples.isVisible}) or ${couples.id} = ${actor.coupleId})`;

/** Counts, the viewer's own kinds and who reacted, for a thread's post and replies (one query). */
async function threadReactions(db: Db, actor: ForumActor, postId: string) {
  const rows = await db
    .select({
      replyId: forumReactions.replyId,
      kind: forumReactions.kind,
      userId: forumReactions.userId,
      firstName: users.firstName,
      coupleName: couples.coupleName,
      named: sql<boolean>`${namedReactor(actor)}`,
    })
    .from(forumReactions)
    .innerJoin(users, eq(users.id, forumReactions.userId))
    .innerJoin(couples, eq(couples.id, forumReactions.coupleId))
    .where(and(eq(forumReactions.postId, postId), notBlockedBetween(actor.coupleId, forumReactions.coupleId)))
    .orderBy(asc(forumReactions.createdAt));
  const byTarget = new Map<string, { counts: { kind: ReactionKind; count: number }[]; mine: ReactionKind[]; by: ReactedBy }>();
  for (const row of rows) {
    const key = targetKey({ postId, replyId: row.replyId });
    let entry = byTarget.get(key);
    if (!entry) {
      entry = { counts: [], mine: [], by: noneReacted() };
      byTarget.set(key, entry);
    }
    entry.counts.push({ kind: row.kind, count: 1 });
    if (row.named && entry.by[row.kind].length < REACTED_BY_SHOWN) entry.by[row.kind].push(signature(row.firstName, row.coupleName));
    if (row.userId === actor.userId) entry.mine.push(row.kind);
  }
  return (target: Target) => {
    const entry = byTarget.get(targetKey(target));
    return {
      reactions: reactionCounts(entry?.counts ?? []),
      myReactions: entry?.mine ?? [],
      reactedBy: entry?.by ?? noneReacted(),
    };
  };
}

/** Counts, the viewer's own kinds and the first who reacted, for a list page's posts (reactions on the posts only). */
async function listReactions(db: Db, actor: ForumActor, postIds: string[]) {
  if (postIds.length === 0) return () => ({ reactions: reactionCounts([]), myReactions: [] as ReactionKind[], reactedBy: noneReacted() });
  const rows = await db
    .select({
      postId: forumReactions.postId,
      kind: forumReactions.kind,
      count: sql<number>`count(*)::int`,
      mine: sql<boolean>`bool_or(${forumReactions.userId} = ${actor.userId})`,
      names: sql<string[]>`coalesce((array_agg(${users.firstName} || ' of ' || ${couples.coupleName} order by ${forumReactions.createdAt}, ${forumReactions.id}) filter (where ${namedReactor(actor)}))[1:${sql.raw(String(REACTED_BY_SHOWN))}], '{}')`,
    })
    .from(forumReactions)
    .innerJoin(users, eq(users.id, forumReactions.userId))
    .innerJoin(couples, eq(couples.id, forumReactions.coupleId))
    .where(and(inArray(forumReactions.postId, postIds), isNull(forumReactions.replyId), notBlockedBetween(actor.coupleId, forumReactions.coupleId)))
    .groupBy(forumReactions.postId, forumReactions.kind);
  return (postId: string) => {
    const own = rows.filter((row) => row.postId === postId);
    const reactedBy = noneReacted();
    for (const row of own) reactedBy[row.kind] = row.names;
    return { reactions: reactionCounts(own), myReactions: own.filter((row) => row.mine).map((row) => row.kind), reactedBy };
  };
}

/** The validated mentions of posts (and, with replies, of replies), without couples blocked either way. */
async function mentionsOf(db: Db, actor: ForumActor, postIds: string[], withReplies: boolean) {
  if (postIds.length === 0) return () => [];
  const rows = await db
    .select({ postId: forumMentions.postId, replyId: forumMentions.replyId, coupleId: couples.id, name: couples.coupleName })
    .from(forumMentions)
    .innerJoin(couples, eq(couples.id, forumMentions.mentionedCoupleId))
    .where(and(inArray(forumMentions.postId, postIds), withReplies ? undefined : isNull(forumMentions.replyId), notBlockedBetween(actor.coupleId, couples.id)));
  return (target: Target): ForumMention[] =>
    rows.filter((row) => row.postId === target.postId && row.replyId === target.replyId).map((row) => ({ coupleId: row.coupleId, name: row.name }));
}

/* ---------- Lists ---------- */

const cursorError = () => new AppError("VALIDATION_ERROR", FORUM_MESSAGES.cursorInvalid, { fieldErrors: { cursor: FORUM_MESSAGES.cursorInvalid } });

function readCursor(context: string, text: string | undefined): Cursor | null {
  if (text === undefined) return null;
  const cursor = decodeCursor(authSecret(), context, text);
  if (!cursor) throw cursorError();
  return cursor;
}

/** A cursor's sort key as SQL of the key's own type, so the row comparison is exact. */
const keyValue = (key: Date | number): SQL => (key instanceof Date ? sql`${key.toISOString()}::timestamptz` : sql`${key}::double precision`);

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

/* ---------- One post and its thread ---------- */

const notFound = () => new AppError("NOT_FOUND", "This post does not exist or is no longer available.");

/**
 * A post as the actor may see it, or null: a blocked couple's post does not exist for them; a
 * post hidden by reports exists only for its own couple; a deleted or removed one only while it
 * has replies (its thread stays).
 */
export async function visiblePostRow(db: Db, actor: ForumActor, postId: string): Promise<PostRow | null> {
  const [row] = await selectPosts(db)
    .where(and(eq(forumPosts.id, postId), notBlockedBetween(actor.coupleId, forumPosts.coupleId)))
    .limit(1);
  if (!row) return null;
  if (row.hiddenAt && row.coupleId !== actor.coupleId) return null;
  if (gone(row) && row.replyCount === 0) return null;
  return row;
}

/** One post, shaped for the actor (the answer of create, patch and the thread). */
export async function readPost(db: Db, actor: ForumActor, postId: string, loaded?: ThreadExtras): Promise<ForumPost> {
  const row = await visiblePostRow(db, actor, postId);
  if (!row) throw notFound();
  const [reactionsOf, mentions] = loaded ?? (await Promise.all([threadReactions(db, actor, postId), mentionsOf(db, actor, [postId], false)]));
  return shapePost(row, { ...reactionsOf({ postId, replyId: null }), mentions: mentions({ postId, replyId: null }) });
}

/** A thread's reactions and mentions, read once for the post and its replies. */
type ThreadExtras = [Awaited<ReturnType<typeof threadReactions>>, Awaited<ReturnType<typeof mentionsOf>>];

const quoted = alias(forumReplies, "quoted");
const quotedAuthor = alias(users, "quoted_author");
const quotedCouple = alias(couples, "quoted_couple");

const replyColumns = {
  id: forumReplies.id,
  postId: forumReplies.postId,
  body: forumReplies.body,
  createdAt: forumReplies.createdAt,
  editedAt: forumReplies.editedAt,
  deletedAt: forumReplies.deletedAt,
  hiddenAt: forumReplies.hiddenAt,
  removedAt: forumReplies.removedAt,
  ...authorColumns,
  quoteId: quoted.id,
  quoteBody: quoted.body,
  quoteGone: sql<boolean>`(${quoted.deletedAt} is not null or ${quoted.removedAt} is not null or ${quoted.hiddenAt} is not null)`,
  quoteFirstName: quotedAuthor.firstName,
  quoteCoupleName: quotedCouple.coupleName,
};

/** Replies of a post as the actor sees them: none of couples blocked either way; hidden ones only to their own couple. */
function replyRows(db: Db, actor: ForumActor, where: SQL | undefined) {
  return db
    .select(replyColumns)
    .from(forumReplies)
    .leftJoin(users, eq(users.id, forumReplies.authorUserId))
    .innerJoin(couples, eq(couples.id, forumReplies.coupleId))
    .leftJoin(quoted, and(eq(quoted.id, forumReplies.quoteReplyId), notBlockedBetween(actor.coupleId, quoted.coupleId)))
    .leftJoin(quotedAuthor, eq(quotedAuthor.id, quoted.authorUserId))
    .leftJoin(quotedCouple, eq(quotedCouple.id, quoted.coupleId))
    .where(
      and(where, notBlockedBetween(actor.coupleId, forumReplies.coupleId), or(isNull(forumReplies.hiddenAt), eq(forumReplies.coupleId, actor.coupleId))),
    );
}
type ReplyRow = Awaited<ReturnType<typeof replyRows>>[number];

function shapeReply(row: ReplyRow, extras: { reactions: ReactionCounts; myReactions: ReactionKind[]; reactedBy: ReactedBy; mentions: ForumMention[] }): ForumReply {
  const blank = gone(row);
  return {
    id: row.id,
    postId: row.postId,
    body: blank ? (row.removedAt ? FORUM_TEXTS.removedByModerator : "") : row.body,
    quote:
      row.quoteId === null
        ? null
        : {
            id: row.quoteId,
            author: row.quoteFirstName && row.quoteCoupleName ? { firstName: row.quoteFirstName, coupleName: row.quoteCoupleName } : null,
            excerpt: row.quoteGone ? "" : excerpt(row.quoteBody ?? ""),
            deleted: row.quoteGone,
          },
    author: author(row),
    ...extras,
    mentions: blank ? [] : extras.mentions,
    createdAt: row.createdAt.toISOString(),
    editedAt: showsEdited(row.createdAt, row.editedAt) ? row.editedAt!.toISOString() : null,
    deleted: row.deletedAt !== null,
    removed: row.removedAt !== null,
    hidden: row.hiddenAt !== null,
  };
}

/** One reply, shaped for the actor (the answer of create and patch), or null when they may not see it. */
export async function readReply(db: Db, actor: ForumActor, replyId: string): Promise<ForumReply | null> {
  const [row] = await replyRows(db, actor, eq(forumReplies.id, replyId)).limit(1);
  if (!row) return null;
  const [reactionsOf, mentions] = await Promise.all([threadReactions(db, actor, row.postId), mentionsOf(db, actor, [row.postId], true)]);
  return shapeReply(row, { ...reactionsOf({ postId: row.postId, replyId }), mentions: mentions({ postId: row.postId, replyId }) });
}

/**
 * `GET /api/forum/posts/{id}`: the post and a page of its replies, oldest first. `nextCursor`
 * is the position after the last reply given (also when there is no more yet), so an open page
 * polls with it for replies posted since.
 */
export async function readThread(db: Db, actor: ForumActor, postId: string, query: ThreadQuery): Promise<{ post: ForumPost; replies: ForumReply[]; pagination: KeysetPagination }> {
  const context = `thread:${postId}`;
  const after = readCursor(context, query.cursor);
  const extras: ThreadExtras = await Promise.all([threadReactions(db, actor, postId), mentionsOf(db, actor, [postId], true)]);
  const post = await readPost(db, actor, postId, extras);
  const rows = await replyRows(
    db,
    actor,
    and(
      eq(forumReplies.postId, postId),
      after ? sql`(${forumReplies.createdAt}, ${forumReplies.id}) > (${keyValue(after.sortKey)}, ${after.id}::uuid)` : undefined,
    ),
  )
    .orderBy(asc(forumReplies.createdAt), asc(forumReplies.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const [reactionsOf, mentions] = extras;
  const last = page.at(-1);
  return {
    post,
    replies: page.map((row) => shapeReply(row, { ...reactionsOf({ postId, replyId: row.id }), mentions: mentions({ postId, replyId: row.id }) })),
    pagination: {
      limit: query.limit,
      hasMore: rows.length > query.limit,
      nextCursor: last ? encodeCursor(authSecret(), context, { sortKey: last.createdAt, id: last.id }) : (query.cursor ?? null),
    },
  };
}

/* ---------- Mention suggestions ---------- */

export type MentionSuggestion = { coupleId: string; name: string; imageUrl: string | null };

/**
 * The words of a mention query as a prefix search over the words of couple names ("ma th" finds
 * "Maya & Theo"), or null when it has no letter or digit. Only letters and digits reach
 * to_tsquery, so nothing typed can change the query's syntax.
 */
export function mentionPrefixQuery(q: string): string | null {
  const words = q.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  return words ? words.map((word) => `${word}:*`).join(" & ") : null;
}

/**
 * Couples the actor may mention with a name whose words start with the query's words:
 * discoverable (active and visible), not their own, not blocked either way. Hidden couples'
 * posts stay readable, but nobody can find them here. Served by the GIN index on the name's
 * words (`couples_name_words_idx`), so it stays indexed at 100,000 couples.
 */
export async function mentionSuggestions(db: Db, actor: ForumActor, q: string): Promise<MentionSuggestion[]> {
  const words = mentionPrefixQuery(q);
  if (!words) return [];
  return db
    .select({ coupleId: couples.id, name: couples.coupleName, imageUrl: couples.profileImageUrl })
    .from(couples)
    .where(and(mentionable(actor), sql`to_tsvector('simple', ${couples.coupleName}) @@ to_tsquery('simple', ${words})`))
    .orderBy(asc(couples.coupleName))
    .limit(8);
}

/** The couples (rows of `couples`) the actor may mention. */
export function mentionable(actor: ForumActor): SQL {
  return and(eq(couples.status, "active"), eq(couples.isVisible, true), ne(couples.id, actor.coupleId), notBlockedBetween(actor.coupleId, couples.id))!;
}
