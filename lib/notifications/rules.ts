/**
 * Pure notification rules shared by the server, the bell and the notifications page
 * (no server-only imports: the browser bundles this file). What each type says, opens and
 * defaults to is its definition (./types); the lists here are read from them.
 */
import { type ChannelChoice, openTarget, type NotificationTarget } from "./types/definition";
import { NOTIFICATION_DEFINITIONS, type NotificationKind } from "./types";

export { CHANNELS, type Channel, type ChannelChoice, type ChannelChoiceInput } from "./types/definition";
export type { NotificationKind } from "./types";

/** Section 9: page size 20 by default, at most 50; the bell shows the 5 latest. */
export const LIST_DEFAULT_LIMIT = 20;
export const LIST_MAX_LIMIT = 50;
export const DROPDOWN_SIZE = 5;
/** How many ids one mark-read call may name: a page of the list is at most 50. */
export const MARK_READ_MAX_IDS = 100;
/** Section 9: the unread count is polled every 10 s while the page is visible, stale after 8 s. */
export const UNREAD_POLL_MS = 10_000;
export const UNREAD_STALE_MS = 8_000;
/** Section 9: a failed unread count is tried twice more when the failure is transient. */
export const UNREAD_RETRIES = 2;

/** What the API answers for one notification (section 3). */
export type NotificationItem = {
  id: string;
  type: NotificationKind;
  title: string;
  message: string;
  /** The same text as `message`: the spec's clients read either name. */
  content_snippet: string;
  is_read: boolean;
  created_at: string;
  post_id: string | null;
  reply_id: string | null;
  /** Messaging notifications: the conversation they open (null for a request: it opens the requests). */
  conversation_id: string | null;
  actor_profile_image_url: string | null;
  actor_couple_name: string | null;
  /** The same as `actor_couple_name`, under the other name the spec gives it. */
  triggered_by_couple_name: string | null;
  /** The reader's own partner acted: the reader's couple is the actor's, so the list names the partner, not the couple. */
  actor_is_partner: boolean;
};

/**
 * A notification as the app's own lists render it: the API's item without the spec's two aliases
 * (`content_snippet`, `triggered_by_couple_name`), which a page handing items to a client component
 * would otherwise send twice in its flight data. An API item is one too.
 */
export type NotificationView = Omit<NotificationItem, "content_snippet" | "triggered_by_couple_name">;

/** An API item as a NotificationView: the aliases left out, not only untyped. */
export function notificationView({
  content_snippet: _snippet,
  triggered_by_couple_name: _couple,
  ...view
}: NotificationItem): NotificationView {
  return view;
}

/** A notification to send: its recipient, type, words and what it points at. */
export type NewNotification = {
  /** The recipient. */
  userId: string;
  type: NotificationKind;
  title: string;
  message: string;
  postId?: string | null;
  replyId?: string | null;
  conversationId?: string | null;
  /** A plan's notice: the plan it tells of. */
  planId?: string | null;
  actorUserId?: string | null;
  actorCoupleId?: string | null;
};

/**
 * A page of the list: `newestAt`, the created_at of the list's newest notification as the page was
 * read (null: none), bounds 'Mark all as read' on every page, the first page's notices included
 * when a later one is shown, while one that arrived after the list was read stays unread.
 */
export type Pagination = { limit: number; offset: number; total: number; hasMore: boolean; newestAt: string | null };

/** Caps the badge as the spec asks: 99+. */
export const badgeText = (count: number) => (count > 99 ? "99+" : String(count));

/** The page's title with the unread count before it ('(3) Messages · Two of Us'); none at 0. */
export function titleWithUnread(title: string, count: number): string {
  const bare = title.replace(/^\(\d+\+?\) /, "");
  return count > 0 ? `(${badgeText(count)}) ${bare}` : bare;
}

/** A type's definition by its name. */
export const definitionOf = (type: NotificationKind) => NOTIFICATION_DEFINITIONS.find((definition) => definition.type === type)!;

/** Where a notification opens: as its type's definition says (without a type, its conversation, post or the list). */
export function notificationHref(item: NotificationTarget & { type?: NotificationKind }): string {
  return item.type ? definitionOf(item.type).href(item) : openTarget(item);
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const dateFormat = new Intl.DateTimeFormat("en", { day: "numeric", month: "short", year: "numeric" });

const ago = (amount: number, unit: string) => `${amount} ${unit}${amount === 1 ? "" : "s"} ago`;

/** "just now", "5 minutes ago", "2 hours ago", "3 days ago"; a week or more back, the date. */
export function formatNotificationTime(createdAt: string | Date, now: Date = new Date()): string {
  const at = new Date(createdAt);
  const elapsed = now.getTime() - at.getTime();
  // A clock slightly behind the server's would otherwise say "-1 minutes ago".
  if (elapsed < MINUTE) return "just now";
  if (elapsed < HOUR) return ago(Math.floor(elapsed / MINUTE), "minute");
  if (elapsed < DAY) return ago(Math.floor(elapsed / HOUR), "hour");
  if (elapsed < WEEK) return ago(Math.floor(elapsed / DAY), "day");
  return dateFormat.format(at);
}

/** The notification types a person chooses for, in the settings' order. */
export const NOTIFICATION_TYPES = NOTIFICATION_DEFINITIONS.map((definition) => definition.type);

export type NotificationPreferences = Record<NotificationKind, ChannelChoice>;

/** Whether a stored type is one of today's (a row of a type since removed is ignored). */
export const isNotificationKind = (type: string): type is NotificationKind => NOTIFICATION_TYPES.some((known) => known === type);

/** A choice as it applies: a service e-mail (the type's `serviceEmail`) goes whatever was chosen. */
const applied = (type: NotificationKind, choice: ChannelChoice): ChannelChoice =>
  definitionOf(type).serviceEmail ? { ...choice, email: true } : choice;

/** Until a person chooses: each type's defaults (e-mail off for reactions, which come in bursts). */
export const DEFAULT_PREFERENCES = Object.fromEntries(
  NOTIFICATION_DEFINITIONS.map((definition) => [definition.type, applied(definition.type, definition.defaults)]),
) as NotificationPreferences;

/** A stored row: `push` is null where the person never chose (it came after the others). */
export type StoredChoice = { type: string; inApp: boolean; email: boolean; push: boolean | null };

/** One stored choice, its missing channels from the type's defaults, as it applies. */
export const choiceOf = (type: NotificationKind, row: Omit<StoredChoice, "type">): ChannelChoice =>
  applied(type, { inApp: row.inApp, email: row.email, push: row.push ?? DEFAULT_PREFERENCES[type].push });

/** The stored choices over the defaults. */
export function withDefaults(rows: readonly StoredChoice[]): NotificationPreferences {
  const result = structuredClone(DEFAULT_PREFERENCES);
  for (const row of rows) if (isNotificationKind(row.type)) result[row.type] = choiceOf(row.type, row);
  return result;
}
