"use client";

import { fetchNotifications, fetchUnreadCount, pageKey, UNREAD_KEY, type NotificationsPage } from "@/lib/notifications/client";
import { UNREAD_POLL_MS, UNREAD_STALE_MS } from "@/lib/notifications/rules";
import { useLive, type LiveState } from "@/lib/live/client/use-live";

/** Section 9: a fetched list counts as fresh for 30 s. */
const LIST_STALE_MS = 30_000;

/** The bell's number, polled every 10 s while the tab is visible (0 until the first answer). */
export function useUnreadCount(): number {
  const state = useLive(UNREAD_KEY, fetchUnreadCount, { pollMs: UNREAD_POLL_MS, staleMs: UNREAD_STALE_MS });
  return state.status === "ready" ? state.value : 0;
}

/**
 * One page of the list, loaded again on return to the tab once it is 30 s old and whenever this
 * tab marks notifications read. A failed refresh keeps what is already shown; only a first load
 * that fails shows the error.
 */
export function useNotificationsPage(limit: number, offset: number): LiveState<NotificationsPage> {
  return useLive(pageKey({ limit, offset }), (signal) => fetchNotifications({ limit, offset }, signal), { staleMs: LIST_STALE_MS });
}
