/**
 * Forum rules: topics, scopes, sorts, reactions, limits and the texts built from
 * them. Pure and browser-safe with relative imports of pure files only, so the composer, the
 * pages and the server share one copy of every list and limit. The values the database's enums
 * hold come from db/schema/forum-values.ts (no imports), which this file labels.
 */
import {
  REACTION_KINDS,
  REPORT_REASON_VALUES,
  REPORT_TARGET_TYPES,
  SCOPE_VALUES,
  TOPIC_VALUES,
  type ForumScope,
  type ForumTopic,
  type ReactionKind,
  type ReportReason,
  type ReportTargetType,
} from "../../db/schema/forum-values";
import { excerpt } from "../plain-text";
import type { ForumAuthor } from "./projections";
import { bandOf } from "../locations/bands";

export { REACTION_KINDS, REPORT_REASON_VALUES, REPORT_TARGET_TYPES, SCOPE_VALUES, TOPIC_VALUES };
export type { ForumScope, ForumTopic, ReactionKind, ReportReason, ReportTargetType };

/** Topics, tied to the interest categories, in display order (`GET /api/forum/topics`). */
export const FORUM_TOPICS = [
  { value: "travel", label: "Travel" },
  { value: "food_drink", label: "Food & Drink" },
  { value: "outdoors", label: "Outdoors" },
  { value: "culture_creativity", label: "Culture & Creativity" },
  { value: "wellness", label: "Wellness" },
  { value: "career_money", label: "Career & Money" },
  { value: "home_life", label: "Home Life" },
  { value: "meetups", label: "Meetups" },
] as const satisfies readonly { value: ForumTopic; label: string }[];

export const topicLabel = (topic: ForumTopic): string => FORUM_TOPICS.find((t) => t.value === topic)!.label;

/** The composer's scope choice; a local post carries its couple's place at posting time. */
export const FORUM_SCOPES = [
  { value: "global", label: "Global" },
  { value: "local", label: "Local" },
] as const satisfies readonly { value: ForumScope; label: string }[];

/**
 * List orders: Latest (last activity), New (creation), Top (reactions in the last 7 days), and
 * Nearest, which only the local forum offers (its posts have a distance band).
 */
export const FORUM_SORTS = [
  { value: "latest", label: "Latest" },
  { value: "new", label: "New" },
  { value: "top", label: "Top" },
  { value: "nearest", label: "Nearest" },
] as const;
export type ForumSort = (typeof FORUM_SORTS)[number]["value"];
export const SORT_VALUES = FORUM_SORTS.map((sort) => sort.value) as [ForumSort, ...ForumSort[]];
export const DEFAULT_SORT: ForumSort = "latest";
/** Sorts that need a distance, hence the local scope. */
export const LOCAL_ONLY_SORTS: readonly ForumSort[] = ["nearest"];
export const TOP_WINDOW_DAYS = 7;

// The five reactions are shared with messages: their rules live in lib/reactions/rules.ts.
export {
  othersText,
  peopleText,
  REACTED_BY_SHOWN,
  reactedByShown,
  reactionCounts,
  REACTIONS,
  whoReactedText,
  type ReactionCounts,
} from "@/lib/reactions/rules";

export const TITLE_MIN = 3;
export const TITLE_MAX = 150;
export const BODY_MIN = 1;
export const BODY_MAX = 10_000;
export const REPLY_BODY_MIN = 1;
export const REPLY_BODY_MAX = 5_000;
export const PHOTOS_MAX = 4;
/** Mentions per post or reply: enough for a meetup invitation, too few to spam a directory. */
export const MENTIONS_MAX = 20;
/**
 * The largest request a post (or its edit) takes: title and body at three UTF-8 bytes a character,
 * four photo URLs and twenty mentions are about 40 kB; a reply's longest (half the body) about 24 kB.
 */
export const POST_REQUEST_BYTES = 64_000;
export const REPLY_REQUEST_BYTES = 32_000;
export const SEARCH_QUERY_MAX = 200;
/** The mention search's words after '@': the start of a couple's name. */
export const MENTION_QUERY_MAX = 50;
export const REPORT_NOTE_MAX = 1_000;

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 50;
/** A thread's replies per page: a long evening's discussion at once, oldest first. */
export const REPLIES_PAGE_DEFAULT = 100;
export const REPLIES_PAGE_MAX = 200;
/**
 * How many replies a thread's page shows: it reads them page after page (wholeThread), so a reply
 * past the first page (a long thread's newest, one's own among them) is there, and stays at the
 * next reload. Bounded: the oldest this many are shown, with a note that there are more.
 */
export const THREAD_REPLIES_SHOWN = 1_000;

/** The local forum's radii in km; 50 is the spec's nearby radius. */
export const LOCAL_RADII_KM = [10, 25, 50, 100] as const;
export type LocalRadius = (typeof LOCAL_RADII_KM)[number];
export const DEFAULT_LOCAL_RADIUS_KM: LocalRadius = 50;

/**
 * The band a local post shows instead of its distance: the smallest radius it lies within.
 * Null beyond the largest radius (such a post is never listed) or for a distance that is not one.
 */
export function distanceBand(distanceKm: number): string | null {
  return bandOf(distanceKm, LOCAL_RADII_KM, null);
}

/** Fixing a typo right after posting is not an edit worth showing. */
export const EDIT_GRACE_MS = 5 * 60_000;

/** Whether a post or reply shows the "edited" marker. */
export function showsEdited(createdAt: Date, editedAt: Date | null): boolean {
  return editedAt !== null && editedAt.getTime() - createdAt.getTime() > EDIT_GRACE_MS;
}

/** How a person signs a post or reply: "Marisol of Marisol & Thaddeus". */
export const signature = (firstName: string, coupleName: string): string => `${firstName} of ${coupleName}`;

/**
 * How a reply arriving live is read out (`lib/live/arrivals.ts`): another's as 'Marisol of
 * Marisol & Thaddeus replied: the start of the words'; one's own and a deleted or removed one are not read.
 */
export const heardAsReply =
  (viewerUserId: string) =>
  (reply: { author: Pick<ForumAuthor, "userId" | "signature">; body: string; deleted: boolean; removed: boolean }): string | null =>
    reply.author.userId === viewerUserId || reply.deleted || reply.removed
      ? null
      : `${reply.author.signature} replied: ${excerpt(reply.body)}`;

/**
 * Who did it, in a notification: to their partner just their first name ("Ben"), never their own
 * couple as if it were another couple; to everyone else their signature.
 */
export const notifiedName = (actor: { firstName: string; coupleName: string }, toPartner: boolean): string =>
  toPartner ? actor.firstName : signature(actor.firstName, actor.coupleName);

export type ReactionTarget = "post" | "reply";

/** Why a report was filed (what it names: REPORT_TARGET_TYPES; filed by lib/safety/reports.ts). */
export const REPORT_REASONS = [
  { value: "spam", label: "Spam" },
  { value: "harassment", label: "Harassment" },
  { value: "inappropriate", label: "Inappropriate" },
  { value: "other", label: "Other" },
] as const satisfies readonly { value: ReportReason; label: string }[];

const HOUR_SECONDS = 60 * 60;

/**
 * Per-person hourly limits, in the shape of lib/rate-limit.ts's `Limit`. Generous for a person
 * (a busy evening is a handful of posts and a few dozen replies), tight for a script.
 */
export const FORUM_LIMITS = {
  postsPerUser: { bucket: "forum-post:user", limit: 10, windowSeconds: HOUR_SECONDS },
  repliesPerUser: { bucket: "forum-reply:user", limit: 60, windowSeconds: HOUR_SECONDS },
  // Toggling counts too: a reaction tapped on and off is two hits.
  reactionsPerUser: { bucket: "forum-reaction:user", limit: 300, windowSeconds: HOUR_SECONDS },
  // Four photos per post, and room for a few that were picked and removed again.
  photosPerUser: { bucket: "forum-photo:user", limit: 60, windowSeconds: HOUR_SECONDS },
  // Each couple told of a mention (in a post or reply, written or edited): each is two e-mails.
  mentionedCouplesPerUser: { bucket: "forum-mention:user", limit: 30, windowSeconds: HOUR_SECONDS },
  // Posts and replies rewritten, together (each a write under the post's lock): far beyond fixing typos.
  editsPerUser: { bucket: "forum-edit:user", limit: 300, windowSeconds: HOUR_SECONDS },
  // The composer's '@' suggestions, one a pause of 200 ms while a name is typed: a few dozen a post, from any tab.
  mentionSearchesPerUser: { bucket: "forum-mention-search:user", limit: 600, windowSeconds: HOUR_SECONDS },
} as const satisfies Record<string, { bucket: string; limit: number; windowSeconds: number }>;

/** Replies from others appear on an open post page at the spec's cadence (paused while hidden). */
export const REPLY_POLL_MS = 10_000;

/** Exact UI copy the pages and the API share. */
export const FORUM_TEXTS = {
  deletedPost: "This post was deleted",
  /** Who wrote a post or reply whose author deleted their account. */
  deletedMember: "Deleted member",
  removedByModerator: "Removed by a moderator",
  noLocation: "Set your location to see couples near you.",
  reportThanks: "Thanks, our team will review this.",
} as const;
