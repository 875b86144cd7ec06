/**
 * The browser's calls to the notifications API, shared by the bell and the notifications page,
 * through the transport (lib/transport/client.ts). Marking read invalidates the live "notifications"
 * keys (lib/live/client/use-live.ts), so the badge and the list follow at once.
 */
import "client-only";
import { api, ApiError } from "@/lib/transport/client";
import { invalidate } from "@/lib/live/client/use-live";
import { UNREAD_RETRIES, type NotificationItem, type Pagination } from "./rules";

/** The live keys: the bell's count, a page of the list, and the dashboard's newest few. */
export const NOTIFICATIONS_KEY = "notifications";
export const UNREAD_KEY = `${NOTIFICATIONS_KEY}:unread`;
/** Every list of notifications shown (a page of the list, the dashboard's newest): a new one loads them again. */
export const LISTS_KEY = `${NOTIFICATIONS_KEY}:page`;
export const pageKey = (page: { limit: number; offset: number }) => `${LISTS_KEY}:${page.limit}:${page.offset}`;
export const latestKey = (limit: number) => `${LISTS_KEY}:latest:${limit}`;

export type NotificationsPage = { data: NotificationItem[]; pagination: Pagination };

export const fetchNotifications = (page: { limit: number; offset: number }, signal?: AbortSignal) =>
  api<NotificationsPage>(`/api/notifications?limit=${page.limit}&offset=${page.offset}`, { signal });

/** The bell's number. Section 8: a 429 counts as 0 and is not retried; transient failures are, twice. */
export async function fetchUnreadCount(signal?: AbortSignal): Promise<number> {
  try {
    const body = await api<{ data: { unread_count: number } }>("/api/notifications/unread-count", { signal, retries: UNREAD_RETRIES });
    return body.data.unread_count;
  } catch (error) {
    if (error instanceof ApiError && error.status === 429) return 0;
    throw error;
  }
}

/**
 * Marks the given notifications (or all, up to the created_at `upTo`, the newest shown: what
 * arrived after it stays unread) read; answers how many changed.
 */
export async function markNotificationsRead(target: { ids: string[] } | { all: true; upTo: string }): Promise<number> {
  const body = "all" in target ? { mark_all: true, up_to: target.upTo } : { notification_ids: target.ids };
  const { data } = await api<{ data: { marked_count: number } }>("/api/notifications/read", { method: "PATCH", body });
  invalidate(NOTIFICATIONS_KEY);
  return data.marked_count;
}

/** Opening an item marks it read; the badge and the lists follow once the server has it. */
export function markOpened(item: Pick<NotificationItem, "id" | "is_read">): void {
  if (item.is_read) return;
  markNotificationsRead({ ids: [item.id] }).catch(() => {
    // Still unread: it shows as new the next time, which is the truth.
  });
}
