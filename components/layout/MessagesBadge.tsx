"use client";

import { useLiveStream } from "@/lib/registry/live-client";
import { useLive } from "@/lib/live/client/use-live";
import { fetchUnreadMessages, UNREAD_MESSAGES_KEY } from "@/lib/messages/client/api";
import { badgeText, UNREAD_POLL_MS, UNREAD_STALE_MS } from "@/lib/notifications/rules";
import styles from "./NotificationBell.module.css";

/**
 * The navigation's 'Messages' count: this person's unread messages, capped at '99+' like the bell,
 * fed by the tab's live stream (the bell's poll only while it is down).
 */
export function MessagesBadge() {
  useLiveStream();
  const state = useLive(UNREAD_MESSAGES_KEY, fetchUnreadMessages, { pollMs: UNREAD_POLL_MS, staleMs: UNREAD_STALE_MS });
  const unread = state.status === "ready" ? state.value : 0;
  if (unread === 0) return null;
  return (
    <>
      <span className={`${styles.badge} ${styles.inline}`} aria-hidden="true" data-testid="messages-badge">
        {badgeText(unread)}
      </span>
      <span className="visually-hidden">, {badgeText(unread)} unread</span>
    </>
  );
}
