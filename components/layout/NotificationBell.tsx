"use client";

import Link from "next/link";
import { useCallback, useRef, useState } from "react";
import { useNotificationsPage, useUnreadCount } from "@/components/notifications/hooks";
import { NotificationSummary } from "@/components/notifications/NotificationSummary";
import { BellIcon } from "@/components/ui/icons";
import { markNotificationsRead } from "@/lib/notifications/client";
import { badgeText, DROPDOWN_SIZE, notificationHref, type NotificationItem } from "@/lib/notifications/rules";
import { useDismiss } from "./useDismiss";

/** Opening an item marks it read; the badge and the page follow once the server has it. */
function markOpened(item: NotificationItem): void {
  if (item.is_read) return;
  markNotificationsRead({ ids: [item.id] }).catch(() => {
    // Still unread: it shows as new the next time, which is the truth.
  });
}

/** The 5 latest, loaded each time the dropdown opens (it is mounted only while open). */
function LatestNotifications({ onNavigate }: { onNavigate: () => void }) {
  const state = useNotificationsPage(DROPDOWN_SIZE, 0);
  if (state.status === "loading")
    return (
      <p className="dropdown-empty" role="status">
        Loading notifications...
      </p>
    );
  if (state.status === "error")
    return (
      <p className="dropdown-empty" role="alert">
        Failed to load notifications
      </p>
    );
  if (state.value.data.length === 0) return <p className="dropdown-empty">You&apos;re all caught up!</p>;
  return (
    <ul className="notification-menu">
      {state.value.data.map((item) => (
        <li key={item.id}>
          <Link
            href={notificationHref(item)}
            className="notification-link"
            onClick={() => {
              markOpened(item);
              onNavigate();
            }}
          >
            <NotificationSummary item={item} />
          </Link>
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

  useDismiss(open, close, container, button);

  return (
    <div className="bell" ref={container}>
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
          <span className="badge" aria-hidden="true">
            {badgeText(unread)}
          </span>
        )}
      </button>
      {open && (
        <div id="notification-dropdown" className="dropdown" role="region" aria-label="Latest notifications">
          <LatestNotifications onNavigate={() => setOpen(false)} />
          <Link href="/notifications" className="dropdown-footer" onClick={() => setOpen(false)}>
            View All Notifications
          </Link>
        </div>
      )}
    </div>
  );
}
