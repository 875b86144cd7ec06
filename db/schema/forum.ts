/**
 * The forum: posts, replies, reactions, mentions, reports and couple blocks.
 *
 * Conventions of this file:
 * - Timestamps are timestamp(3): whole milliseconds, so a JavaScript Date holds a row's value
 *   exactly and keyset cursors (lib/pagination/cursor.ts) neither skip nor repeat rows.
 * - Content is never deleted while a thread needs it: `deleted_at` (by its author), `hidden_at`
 *   (reported by enough couples, until reviewed) and `removed_at` (by a moderator) keep the row,
 *   and the lists' partial indexes leave such rows out.
 * - Keyset indexes are ascending: scanned backwards they serve `order by x desc, id desc` exactly
 *   (Drizzle's `.desc()` writes DESC NULLS LAST, which a plain `desc` order cannot use).
 * - Topic, scope, reaction and report values come from ./forum-values.ts, the one list the
 *   composer, the API (through lib/forum/rules.ts) and these enums share.
 */
import { sql, type SQL } from "drizzle-orm";
import {
  check,
  customType,
  doublePrecision,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import { couples } from "./couples";
import { REACTION_KINDS, REPORT_REASON_VALUES, REPORT_TARGET_TYPES, SCOPE_VALUES, TOPIC_VALUES } from "./forum-values";
import { users } from "./identity";

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });
const createdAt = () => at("created_at").notNull().defaultNow();

export const forumTopic = pgEnum("forum_topic", TOPIC_VALUES);
export const forumScope = pgEnum("forum_scope", SCOPE_VALUES);
export const reactionKind = pgEnum("reaction_kind", REACTION_KINDS);
export const reportTargetType = pgEnum("report_target_type", REPORT_TARGET_TYPES);
export const reportReason = pgEnum("report_reason", REPORT_REASON_VALUES);
export const reportStatus = pgEnum("report_status", ["open", "dismissed", "removed"]);

/** Postgres full-text vector; Drizzle has no built-in column for it. */
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/** A row others may see in a list: not deleted, not hidden by reports, not removed. */
const listed = (t: { deletedAt: AnyPgColumn; hiddenAt: AnyPgColumn; removedAt: AnyPgColumn }): SQL =>
  sql`${t.deletedAt} is null and ${t.hiddenAt} is null and ${t.removedAt} is null`;

/**
 * A post, written by a person for their couple. `couple_id` is the couple at posting time, so
 * the signature and blocks work without a join through the partners; it is set to null, never
 * cascaded, when the couple goes (the replies of other couples under the post stay). A local
 * post carries the place its couple showed others when it was posted (`place` text, and
 * coordinates already snapped at the couple's privacy level, never the exact point): moving
 * later does not move old posts, and distances measured from these coordinates cannot locate
 * anyone. `reply_count` (the replies neither deleted nor removed) and `last_activity_at` (lib/forum/activity.ts) are kept
 * by the reply writes so a list row counts only what a viewer may not see (lib/forum/list.ts) and
 * Latest sorts by one indexed column. `search_vector` is generated from title
 * (weight A) and body (weight B) for ranked full-text search ('english': the app's language, so
 * "hiking" finds "hike").
 *
 * Indexes: one keyset index per list order (Latest, New, Top), each also with the topic filter, all
 * partial on listed rows and led by the scope; a GIN index for search; a GiST point
 * index narrowing the local forum's bounding box; the couple's posts; the author's recent posts
 * (the 60 s duplicate-body check).
 */
export const forumPosts = pgTable(
  "forum_posts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Null once its author deleted their account: it then shows "Deleted member" (lib/forum/queries). */
    authorUserId: uuid("author_user_id").references(() => users.id, { onDelete: "set null" }),
    /** Null once its couple is gone (its last partner deleted their account): the post stays, "Deleted member". */
    coupleId: uuid("couple_id").references(() => couples.id, { onDelete: "set null" }),
    scope: forumScope("scope").notNull(),
    topic: forumTopic("topic").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    /** Upload URLs from POST /api/forum/photos, at most 4 (checked by lib/forum/schemas.ts). */
    photos: text("photos")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Local posts only: the place text others saw, its shown (snapped) coordinates, and how fine it is (lib/forum/place.ts). */
    place: text("place"),
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    /** Null is read as city (lib/forum/local.ts placeShownTo), the stricter. */
    placeLevel: text("place_level").$type<"city" | "region">(),
    replyCount: integer("reply_count").notNull().default(0),
    /** Reactions on the post in Top's 7-day window, kept by the reaction writes (db/schema/forum-top.ts). */
    topScore: integer("top_score").notNull().default(0),
    lastActivityAt: at("last_activity_at").notNull().defaultNow(),
    createdAt: createdAt(),
    editedAt: at("edited_at"),
    deletedAt: at("deleted_at"),
    hiddenAt: at("hidden_at"),
    removedAt: at("removed_at"),
    searchVector: tsvector("search_vector")
      .notNull()
      .generatedAlwaysAs(
        (): SQL =>
          sql`setweight(to_tsvector('english', ${forumPosts.title}), 'A') || setweight(to_tsvector('english', ${forumPosts.body}), 'B')`,
      ),
  },
  (t) => [
    check(
      "forum_posts_local_place_check",
      sql`${t.scope} <> 'local' or (${t.place} is not null and ${t.latitude} is not null and ${t.longitude} is not null)`,
    ),
    // Null passes (an instance of the code before levels, mid-deploy): read as city, the stricter.
    check("forum_posts_place_level_check", sql`${t.placeLevel} in ('city', 'region')`),
    index("forum_posts_latest_idx").on(t.scope, t.lastActivityAt, t.id).where(listed(t)),
    index("forum_posts_new_idx").on(t.scope, t.createdAt, t.id).where(listed(t)),
    index("forum_posts_topic_latest_idx").on(t.scope, t.topic, t.lastActivityAt, t.id).where(listed(t)),
    index("forum_posts_topic_new_idx").on(t.scope, t.topic, t.createdAt, t.id).where(listed(t)),
    index("forum_posts_top_idx")
      .on(t.scope, t.topScore, t.id)
      .where(sql`${listed(t)} and ${t.topScore} > 0`),
    index("forum_posts_topic_top_idx")
      .on(t.scope, t.topic, t.topScore, t.id)
      .where(sql`${listed(t)} and ${t.topScore} > 0`),
    index("forum_posts_search_idx").using("gin", t.searchVector).where(listed(t)),
    // The local forum's box: a GiST index on the (longitude, latitude) point, so the rows read
    // are the posts inside the box, not every post at that latitude around the world.
    index("forum_posts_local_box_idx")
      .using("gist", sql`point(${t.longitude}, ${t.latitude})`)
      .where(sql`${t.scope} = 'local' and ${listed(t)}`),
    index("forum_posts_couple_idx").on(t.coupleId, t.createdAt),
    index("forum_posts_author_recent_idx").on(t.authorUserId, t.createdAt),
  ],
);

/**
 * A reply to a post, read oldest first, so (post_id, created_at, id) is the thread's keyset and
 * the "new replies since" poll. Deleted and hidden replies stay in that index: the thread shows a
 * placeholder where they were, and quotes of them still resolve. `quote_reply_id` is the one
 * level of quoting (a reply of the same post; the server checks that). The author's recent
 * replies serve the duplicate-body check.
 */
export const forumReplies = pgTable(
  "forum_replies",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    postId: uuid("post_id")
      .notNull()
      .references(() => forumPosts.id, { onDelete: "cascade" }),
    /** Null once its author deleted their account: it then shows "Deleted member" (lib/forum/queries). */
    authorUserId: uuid("author_user_id").references(() => users.id, { onDelete: "set null" }),
    /** Null once its couple is gone: the reply stays, "Deleted member". */
    coupleId: uuid("couple_id").references(() => couples.id, { onDelete: "set null" }),
    quoteReplyId: uuid("quote_reply_id").references((): AnyPgColumn => forumReplies.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    createdAt: createdAt(),
    editedAt: at("edited_at"),
    deletedAt: at("deleted_at"),
    hiddenAt: at("hidden_at"),
    removedAt: at("removed_at"),
  },
  (t) => [
    index("forum_replies_thread_idx").on(t.postId, t.createdAt, t.id),
    index("forum_replies_author_recent_idx").on(t.authorUserId, t.createdAt),
    // A couple's replies: when the couple goes, its replies' couple is set to null through this (not a
    // scan of every reply); by post, a list counts a blocked couple's replies to each listed post.
    index("forum_replies_couple_post_idx").on(t.coupleId, t.postId),
    // Replies hidden by reports, few: a list leaves them out of another couple's count.
    index("forum_replies_hidden_idx")
      .on(t.postId)
      .where(sql`${t.hiddenAt} is not null`),
    // Deleting a quoted reply's row (an account deletion) sets its quotes to null through this.
    index("forum_replies_quote_idx")
      .on(t.quoteReplyId)
      .where(sql`${t.quoteReplyId} is not null`),
  ],
);

/**
 * One reaction of a person on a post (reply_id null) or on one of its replies. `post_id` is set
 * for both; a thread reads the post's and each reply's by the partial unique keys.
 * `couple_id` is the reactor's couple: blocks hide it, and grouped notifications count couples.
 * One of each kind per person and target, by the two partial unique indexes (what makes PUT
 * idempotent). Top's window moves over the recent-post-reactions index (lib/forum/top.ts).
 */
export const forumReactions = pgTable(
  "forum_reactions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    postId: uuid("post_id")
      .notNull()
      .references(() => forumPosts.id, { onDelete: "cascade" }),
    replyId: uuid("reply_id").references(() => forumReplies.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    coupleId: uuid("couple_id")
      .notNull()
      .references(() => couples.id, { onDelete: "cascade" }),
    kind: reactionKind("kind").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("forum_reactions_post_user_kind_key")
      .on(t.postId, t.userId, t.kind)
      .where(sql`${t.replyId} is null`),
    uniqueIndex("forum_reactions_reply_user_kind_key")
      .on(t.replyId, t.userId, t.kind)
      .where(sql`${t.replyId} is not null`),
    index("forum_reactions_post_recent_idx")
      .on(t.createdAt, t.postId)
      .where(sql`${t.replyId} is null`),
    // A post's reactions, on it and on its replies: what a post's deletion (the demo's reset,
    // lib/demo/forum.ts) cascades to; the partial unique keys cannot find its replies' ones.
    index("forum_reactions_thread_idx").on(t.postId),
    // A person's own reactions: the data export's pages, newest first, and the account's erasure.
    index("forum_reactions_user_created_idx").on(t.userId, t.createdAt),
  ],
);

/**
 * A couple mentioned by a post (reply_id null) or a reply: only ids the server validated, never
 * parsed from the text, so rendering (lib/forum/text.ts) links exactly these. `post_id` is set for
 * both; a thread reads the post's and each reply's by the partial unique keys. One row per couple and target.
 * By mentioned couple: what a couple was mentioned in, and cleaning up after a block.
 */
export const forumMentions = pgTable(
  "forum_mentions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    postId: uuid("post_id")
      .notNull()
      .references(() => forumPosts.id, { onDelete: "cascade" }),
    replyId: uuid("reply_id").references(() => forumReplies.id, { onDelete: "cascade" }),
    mentionedCoupleId: uuid("mentioned_couple_id")
      .notNull()
      .references(() => couples.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("forum_mentions_post_couple_key")
      .on(t.postId, t.mentionedCoupleId)
      .where(sql`${t.replyId} is null`),
    uniqueIndex("forum_mentions_reply_couple_key")
      .on(t.replyId, t.mentionedCoupleId)
      .where(sql`${t.replyId} is not null`),
    index("forum_mentions_couple_idx").on(t.mentionedCoupleId),
    // A post's mentions, in it and in its replies: what a post's deletion (the demo's reset,
    // lib/demo/forum.ts) cascades to; the partial unique keys cannot find its replies' ones.
    index("forum_mentions_thread_idx").on(t.postId),
  ],
);

/**
 * A person's report of a post, a reply or a couple. The target is a type and an id without a
 * foreign key: a report is a record for moderators and outlives what it names. One open report per
 * person and target (409 ALREADY_REPORTED); once reviewed, the same person may report it again.
 * `reporter_couple_id` lets the hide rule count different couples (3) with the (target) index; the
 * moderation queue reads open reports oldest first from a partial index that stays small once
 * reports are reviewed. `reported_title` and `reported_body` are the target's words as the reporter
 * saw them (a post, a reply, a message, a couple, a plan or a hello: lib/safety/reports.ts
 * `ReportedWords`), so moderators judge what was reported even after an edit or a deletion; they go
 * where the author's words go when the author's account is deleted. A report outlives its
 * reporter's account, open or reviewed (moderators still judge what was reported, and a couple's
 * record still counts it): their id and their note go with them (`anonymiseReportsOf`), their couple's id when
 * the couple goes too; the rules that count couples count such a report once (`reportingCouple`).
 */
export const reports = pgTable(
  "reports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    reporterUserId: uuid("reporter_user_id").references(() => users.id, { onDelete: "set null" }),
    reporterCoupleId: uuid("reporter_couple_id").references(() => couples.id, { onDelete: "set null" }),
    targetType: reportTargetType("target_type").notNull(),
    targetId: uuid("target_id").notNull(),
    reason: reportReason("reason").notNull(),
    note: text("note"),
    reportedTitle: text("reported_title"),
    reportedBody: text("reported_body"),
    status: reportStatus("status").notNull().default("open"),
    reviewedByUserId: uuid("reviewed_by_user_id").references(() => users.id, { onDelete: "set null" }),
    reviewedAt: at("reviewed_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("reports_reporter_target_key")
      .on(t.reporterUserId, t.targetType, t.targetId)
      .where(sql`${t.status} = 'open'`),
    index("reports_target_idx").on(t.targetType, t.targetId),
    // A target's open reports oldest first, with what decides their decision (lib/safety/reports-against.ts
    // `decidedWith`): the queue's test for an older report of a row's decision and its first notes
    // read a few entries however many times the target was reported.
    index("reports_open_target_idx")
      .on(t.targetType, t.targetId, t.createdAt, t.id, t.reporterCoupleId)
      .where(sql`${t.status} = 'open'`),
    index("reports_open_idx")
      .on(t.createdAt)
      .where(sql`${t.status} = 'open'`),
    // The open reports a moderator's couple filed: the targets left to another moderator (lib/safety/moderators.ts).
    index("reports_open_reporter_couple_idx")
      .on(t.reporterCoupleId, t.targetType, t.targetId)
      .where(sql`${t.status} = 'open'`),
    // Every report a person or a couple filed, open or reviewed: their account's deletion keeps them
    // without their name (lib/safety/reports.ts anonymiseReportsOf, the keys' `set null`) and the
    // export reads them, without a scan of every report.
    index("reports_reporter_user_idx").on(t.reporterUserId),
    index("reports_reporter_couple_idx").on(t.reporterCoupleId),
  ],
);

/**
 * A photo uploaded through `POST /api/forum/photos` and not yet on a post, recorded with its
 * uploader so a post may only show its author's own uploads (never another person's, never an
 * outside URL); the post that shows it claims it (the row goes: lib/forum/photos.ts).
 */
export const forumPhotos = pgTable(
  "forum_photos",
  {
    url: text("url").primaryKey(),
    ownerUserId: uuid("owner_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("forum_photos_owner_idx").on(t.ownerUserId),
    // The due work's sweep of uploads no post claimed (lib/forum/photos.ts), oldest first.
    index("forum_photos_created_idx").on(t.createdAt),
  ],
);

/**
 * A couple blocking another, for both partners of both couples and in both directions: every
 * forum read and write asks "is there a row either way" (the key answers one direction, the
 * (blocked, blocker) index the other). `created_by_user_id` is the partner who blocked.
 */
export const coupleBlocks = pgTable(
  "couple_blocks",
  {
    blockerCoupleId: uuid("blocker_couple_id")
      .notNull()
      .references(() => couples.id, { onDelete: "cascade" }),
    blockedCoupleId: uuid("blocked_couple_id")
      .notNull()
      .references(() => couples.id, { onDelete: "cascade" }),
    createdByUserId: uuid("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: "couple_blocks_pkey", columns: [t.blockerCoupleId, t.blockedCoupleId] }),
    index("couple_blocks_blocked_idx").on(t.blockedCoupleId, t.blockerCoupleId),
    // The settings page's list of the couples a couple blocked, newest first, a keyset page at a time.
    index("couple_blocks_blocker_created_idx").on(t.blockerCoupleId, t.createdAt, t.blockedCoupleId),
    check("couple_blocks_not_self_check", sql`${t.blockerCoupleId} <> ${t.blockedCoupleId}`),
  ],
);
