"use client";

import Link from "next/link";
import { useCallback, useEffect, useRef, useState } from "react";
import { useNotificationsPage, useUnreadCount } from "@/components/notifications/hooks";
import { NotificationLink } from "@/components/notifications/NotificationSummary";
import { BellIcon } from "@/components/ui/icons";
import { markOpened, type NotificationsPage } from "@/lib/notifications/client";
import { badgeText, DROPDOWN_SIZE, notificationHref } from "@/lib/notifications/rules";
import styles from "./NotificationBell.module.css";
import { useDismiss } from "./useDismiss";

type LatestProps = { onNavigate: () => void; lastShown?: NotificationsPage; onShown: (page: NotificationsPage) => void };

/**
 * The 5 latest, loaded each time the dropdown opens (it is mounted only while open). Until they
 * answer it shows the ones it showed last, or keeps their room: 'View All Notifications' below
 * them stays where a click aimed at it lands.
 */
function LatestNotifications({ onNavigate, lastShown, onShown }: LatestProps) {
  const state = useNotificationsPage(DROPDOWN_SIZE, 0, lastShown);
  const shown = state.status === "ready" ? state.value : undefined;
  useEffect(() => {
    if (shown) onShown(shown);
  }, [shown, onShown]);
  if (state.status === "loading")
    return (
      <p className={`${styles.empty} ${styles.loading}`} role="status">
        Loading notifications...
      </p>
    );
  if (state.status === "error")
    return (
      <p className={styles.empty} role="alert">
        Failed to load notifications
      </p>
    );
  if (state.value.data.length === 0) return <p className={styles.empty}>You&apos;re all caught up!</p>;
  return (
    <ul className={styles.menu}>
      {state.value.data.map((item) => (
        <li key={item.id}>
          <NotificationLink
            item={item}
            href={notificationHref(item)}
            compact
            className={styles.item}
            onClick={() => {
              markOpened(item);
              onNavigate();
            }}
          />
        </li>
      ))}
    </ul>
  );
}

/** The bell, its unread badge (polled while the tab is visible) and the dropdown of the latest (a sheet on phones). */
export function NotificationBell() {
  const [open, setOpen] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const unread = useUnreadCount();
  const close = useCallback(() => setOpen(false), []);
  // Kept while the dropdown is closed, for its next opening.
  const [lastShown, setLastShown] = useState<NotificationsPage>();

  useDismiss(open, close, container, button);

  return (
    <div className={styles.bell} ref={container}>
      <button
        ref={button}
        type="button"
        className="icon-button"
        aria-label={unread ? `Notifications, ${badgeText(unread)} unread` : "Notifications"}
        aria-expanded={open}
        aria-controls="notification-dropdown"
        onClick={() => setOpen((value) => !value)}
      >
        <BellIcon />
        {unread > 0 && (
          <span className={styles.badge} aria-hidden="true" data-testid="unread-badge">
            {badgeText(unread)}
          </span>
        )}
      </button>
      {open && (
        <div id="notification-dropdown" className={styles.dropdown} role="region" aria-label="Latest notifications">
          <LatestNotifications onNavigate={close} lastShown={lastShown} onShown={setLastShown} />
          <Link href="/notifications" className={styles.footer} onClick={() => setOpen(false)}>
            View All Notifications
          </Link>
        </div>
      )}
    </div>
  );
}
