import "server-only";
import { eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { placeName } from "@/lib/locations/place-name";
import { placeShownTo } from "./local";
import { couples, forumPosts, forumReplies, users } from "@/db/schema";
import { coupleBadge } from "@/lib/couples/rules";
import { blockedEitherWay } from "@/lib/safety/blocks";
import { seenByViewer } from "@/lib/safety/visibility";
import { distanceBand, FORUM_TEXTS, REACTION_KINDS, showsEdited, signature, type ReactionCounts, type ReactionKind } from "./rules";
import type { ForumMention } from "./text";

/**
 * `userId` is null once the author deleted their account (then the names say "Deleted member");
 * the couple's fields are null once the couple is gone too (its last partner deleted their
 * account): the words stay, signed "Deleted member", and nobody else's replies go with them.
 * `profileShown`: the viewer may see the couple (lib/safety/visibility.ts), so its name links to
 * its profile beside its photo; a couple that hid or was suspended since keeps its name on its
 * words, with neither a link that would answer 404 nor its photo.
 */
export type ForumAuthor = {
  userId: string | null;
  firstName: string;
  coupleId: string | null;
  coupleName: string | null;
  coupleImageUrl: string | null;
  isVerified: boolean;
  signature: string;
  profileShown: boolean;
};
export type { ForumMention } from "./text";
/**
 * Who reacted with each kind, as signatures ("Marisol of Marisol & Thaddeus"), earliest first and at most
 * REACTED_BY_SHOWN of them (the count says how many more): shown on hover or focus. Couples
 * blocked either way are neither listed nor counted.
 */
export type ReactedBy = Record<ReactionKind, string[]>;
export const noneReacted = (): ReactedBy => Object.fromEntries(REACTION_KINDS.map((kind) => [kind, []])) as unknown as ReactedBy;

/** A post as lists show it: counts of each reaction, not who reacted (the thread's detail). */
export type ForumPost = {
  id: string;
  title: string;
  body: string;
  topic: string;
  scope: "global" | "local";
  photos: string[];
  author: ForumAuthor;
  place: string | null;
  distanceBand: string | null;
  replyCount: number;
  reactions: ReactionCounts;
  myReactions: ReactionKind[];
  mentions: ForumMention[];
  createdAt: string;
  editedAt: string | null;
  lastActivityAt: string;
  deleted: boolean;
  removed: boolean;
  /** Hidden by reports until reviewed: only its own couple still sees it, with this flag. */
  hidden: boolean;
};

/** A post as its own page (and the answer of create and edit) shows it: with who reacted. */
export type ForumPostDetail = ForumPost & { reactedBy: ReactedBy };

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

/** An author's columns as the viewer's couple sees them (a couple blocked either way is left out by the read). */
export const authorColumns = (viewerCouple: string | SQL) => ({
  authorUserId: users.id,
  firstName: users.firstName,
  coupleId: couples.id,
  coupleName: couples.coupleName,
  coupleImageUrl: couples.profileImageUrl,
  status: couples.status,
  partnerAVerified: couples.partnerAVerified,
  partnerBVerified: couples.partnerBVerified,
  profileShown: seenByViewer(viewerCouple),
});

/**
 * SQL: a post's replies as the viewer reads them in its thread: the stored count (neither deleted
 * nor removed) less those hidden by reports of other couples and those of couples blocked either
 * way, each found by its own small index (a post's thousands of replies are not read).
 */
function replyCountFor(viewerCouple: string | SQL): SQL<number> {
  const live = sql`r.deleted_at is null and r.removed_at is null`;
  return sql<number>`${forumPosts.replyCount} - (select count(*) from ${forumReplies} r
      where r.post_id = ${forumPosts.id} and r.hidden_at is not null and ${live} and r.couple_id is distinct from ${viewerCouple})::int
    - (select count(*) from ${forumReplies} r
      where r.couple_id in ${blockedEitherWay(viewerCouple)}
        and r.post_id = ${forumPosts.id} and r.hidden_at is null and ${live})::int`;
}

export const postColumns = (viewerCouple: string | SQL) => ({
  id: forumPosts.id,
  title: forumPosts.title,
  body: forumPosts.body,
  topic: forumPosts.topic,
  scope: forumPosts.scope,
  photos: forumPosts.photos,
  place: forumPosts.place,
  placeShown: placeShownTo(viewerCouple),
  latitude: forumPosts.latitude,
  longitude: forumPosts.longitude,
  replyCount: replyCountFor(viewerCouple),
  createdAt: forumPosts.createdAt,
  editedAt: forumPosts.editedAt,
  lastActivityAt: forumPosts.lastActivityAt,
  deletedAt: forumPosts.deletedAt,
  hiddenAt: forumPosts.hiddenAt,
  removedAt: forumPosts.removedAt,
  ...authorColumns(viewerCouple),
});

/** A post (replyId null) or one of its replies: what a reaction or a mention is on. */
export type Target = { postId: string; replyId: string | null };

/** Posts with their author and couple joined in (left joins: a deleted member's posts stay). */
export const selectPosts = (db: Db, viewerCouple: string | SQL) =>
  db
    .select(postColumns(viewerCouple))
    .from(forumPosts)
    .leftJoin(users, eq(users.id, forumPosts.authorUserId))
    .leftJoin(couples, eq(couples.id, forumPosts.coupleId));
export type PostRow = Awaited<ReturnType<typeof selectPosts>>[number];

export const author = (row: Pick<PostRow, keyof ReturnType<typeof authorColumns>>): ForumAuthor => {
  const named = row.firstName !== null && row.coupleName !== null ? signature(row.firstName, row.coupleName) : null;
  const profileShown = named !== null && row.authorUserId !== null && row.profileShown;
  return {
    userId: row.authorUserId,
    firstName: row.firstName ?? FORUM_TEXTS.deletedMember,
    coupleId: row.coupleId,
    coupleName: row.coupleName,
    coupleImageUrl: profileShown ? row.coupleImageUrl : null,
    // The couple's badge as everywhere (coupleBadge: active, both partners verified). A deleted
    // member is nobody it vouches for (it may be verified again since, with a new partner).
    isVerified:
      named !== null &&
      row.status !== null &&
      coupleBadge({
        status: row.status,
        partnerAVerified: row.partnerAVerified === true,
        partnerBVerified: row.partnerBVerified === true,
      }) === "Verified Couple",
    signature: named ?? FORUM_TEXTS.deletedMember,
    profileShown,
  };
};

/** Content that is gone (by its author or a moderator) keeps its place, never its words. */
export const gone = (row: { deletedAt: Date | null; removedAt: Date | null }) => row.deletedAt !== null || row.removedAt !== null;

export function shapePost(
  row: PostRow,
  extras: { reactions: ReactionCounts; myReactions: ReactionKind[]; mentions: ForumMention[]; distanceKm?: number | null },
): ForumPost {
  const blank = gone(row);
  return {
    id: row.id,
    title: blank ? (row.removedAt ? FORUM_TEXTS.removedByModerator : FORUM_TEXTS.deletedPost) : row.title,
    body: blank ? "" : row.body,
    topic: row.topic,
    scope: row.scope,
    photos: blank ? [] : row.photos,
    author: author(row),
    place: row.place === null || !row.placeShown ? null : placeName(row.place),
    distanceBand: extras.distanceKm == null || !row.placeShown ? null : distanceBand(extras.distanceKm),
    replyCount: row.replyCount,
    reactions: extras.reactions,
    myReactions: extras.myReactions,
    mentions: blank ? [] : extras.mentions,
    createdAt: row.createdAt.toISOString(),
    editedAt: showsEdited(row.createdAt, row.editedAt) ? row.editedAt!.toISOString() : null,
    lastActivityAt: row.lastActivityAt.toISOString(),
    deleted: row.deletedAt !== null,
    removed: row.removedAt !== null,
    hidden: row.hiddenAt !== null,
  };
}
