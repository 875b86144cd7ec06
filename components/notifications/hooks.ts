"use client";

import { fetchNotifications, fetchUnreadCount, latestKey, pageKey, UNREAD_KEY, type NotificationsPage } from "@/lib/notifications/client";
import { UNREAD_POLL_MS, UNREAD_STALE_MS, type NotificationView } from "@/lib/notifications/rules";
import { useLiveStream } from "@/lib/registry/live-client";
import { useLive, type LiveState } from "@/lib/live/client/use-live";

/** Section 9: a fetched list counts as fresh for 30 s. */
const LIST_STALE_MS = 30_000;

/**
 * The bell's number (0 until the first answer), fed by the tab's live stream; polled every 10 s
 * while the tab is visible only while the stream is down.
 */
export function useUnreadCount(): number {
  useLiveStream();
  const state = useLive(UNREAD_KEY, fetchUnreadCount, { pollMs: UNREAD_POLL_MS, staleMs: UNREAD_STALE_MS });
  return state.status === "ready" ? state.value : 0;
}

/**
 * One page of the list, loaded again when the live stream says a notification arrived or was read
 * (on any of the person's tabs), and, while the stream is down, on return to the tab once it is
 * 30 s old. A failed refresh keeps what is already shown; only a first load that fails shows the
 * error. `placeholder`: the page this place showed before, shown until the load answers (and kept
 * if it fails, as a refresh's failure keeps what is shown).
 */
export function useNotificationsPage(limit: number, offset: number, placeholder?: NotificationsPage): LiveState<NotificationsPage> {
  useLiveStream();
  return useLive(pageKey({ limit, offset }), (signal) => fetchNotifications({ limit, offset }, signal), {
    staleMs: LIST_STALE_MS,
    placeholder,
  });
}

/** The dashboard card's newest few, starting from what the page was rendered with, live like the bell. */
export function useLatestNotifications(limit: number, initial: NotificationView[]): NotificationView[] {
  useLiveStream();
  const state = useLive(latestKey(limit), async (signal) => (await fetchNotifications({ limit, offset: 0 }, signal)).data, {
    staleMs: LIST_STALE_MS,
    initial,
  });
  return state.status === "ready" ? state.value : initial;
}
