/**
 * Pure notification rules shared by the server, the bell and the notifications page
 * (no server-only imports: the browser bundles this file).
 */

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
  type: "partner_joined" | "reply" | "mention" | "reaction" | "connection_request" | "connection_accepted" | "message";
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
};

export type Pagination = { limit: number; offset: number; total: number; hasMore: boolean };

/** Caps the badge as the spec asks: 99+. */
export const badgeText = (count: number) => (count > 99 ? "99+" : String(count));

/**
 * Forum notifications open their post (at the reply when there is one), messaging ones their
 * conversation (a request, the inbox's requests); the rest open the list.
 */
export function notificationHref(
  item: Pick<NotificationItem, "post_id" | "reply_id"> & Partial<Pick<NotificationItem, "type" | "conversation_id">>,
): string {
  if (item.conversation_id) return `/messages/${encodeURIComponent(item.conversation_id)}`;
  if (item.type === "connection_request") return "/messages?tab=requests";
  if (!item.post_id) return "/notifications";
  const post = `/forum/post/${encodeURIComponent(item.post_id)}`;
  return item.reply_id ? `${post}#reply-${encodeURIComponent(item.reply_id)}` : post;
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
export const NOTIFICATION_TYPES = [
  "partner_joined",
  "reply",
  "mention",
  "reaction",
  "connection_request",
  "connection_accepted",
  "message",
] as const satisfies readonly NotificationItem["type"][];
export type NotificationKind = (typeof NOTIFICATION_TYPES)[number];

export type ChannelChoice = { inApp: boolean; email: boolean };
export type NotificationPreferences = Record<NotificationKind, ChannelChoice>;

/** The settings' labels per type. */
export const NOTIFICATION_TYPE_LABELS: Record<NotificationKind, { label: string; hint: string }> = {
  partner_joined: { label: "Partner joined", hint: "When your partner accepts your invitation." },
  reply: { label: "Replies", hint: "When someone replies to your post or quotes your reply." },
  mention: { label: "Mentions", hint: "When a couple mentions yours in the forum." },
  reaction: { label: "Reactions", hint: "When couples react to your posts and replies." },
  connection_request: { label: "Connection requests", hint: "When a couple says hello and asks to talk." },
  connection_accepted: { label: "Accepted requests", hint: "When a couple accepts your request to talk." },
  message: { label: "Messages", hint: "When a couple you talk with writes to you (muted conversations never notify)." },
};

/**
 * Until a person chooses: everything in the app; e-mail for what is addressed to them
 * (partner, replies, mentions) but not for reactions, which come in bursts (as most apps do).
 */
export const DEFAULT_PREFERENCES: NotificationPreferences = {
  partner_joined: { inApp: true, email: true },
  reply: { inApp: true, email: true },
  mention: { inApp: true, email: true },
  reaction: { inApp: true, email: false },
  connection_request: { inApp: true, email: true },
  connection_accepted: { inApp: true, email: true },
  message: { inApp: true, email: true },
};

/** The stored choices over the defaults. */
export function withDefaults(rows: readonly ({ type: NotificationKind } & ChannelChoice)[]): NotificationPreferences {
  const result = structuredClone(DEFAULT_PREFERENCES);
  for (const row of rows) result[row.type] = { inApp: row.inApp, email: row.email };
  return result;
}
