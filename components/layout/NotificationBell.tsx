"use client";

import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { BellIcon } from "@/components/ui/icons";

/** Caps the badge as the spec asks: 99+. */
export const badgeText = (count: number) => (count > 99 ? "99+" : String(count));

/**
 * The bell and its dropdown. Notifications arrive with the partner-invitation work; until then
 * the list is empty and says so.
 */
export function NotificationBell() {
  const [open, setOpen] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const unread = 0;

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    // Tabbing out of the dropdown closes it, like clicking outside.
    const onFocus = (event: FocusEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    const onClick = (event: MouseEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    // Armed after 100 ms so the click that opened the dropdown does not close it.
    const timer = setTimeout(() => document.addEventListener("mousedown", onClick), 100);
    document.addEventListener("keydown", onKey);
    document.addEventListener("focusin", onFocus);
    return () => {
      clearTimeout(timer);
      document.removeEventListener("mousedown", onClick);
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("focusin", onFocus);
    };
  }, [open]);

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
        {unread > 0 && <span className="badge">{badgeText(unread)}</span>}
      </button>
      {open && (
        <div id="notification-dropdown" className="dropdown" role="region" aria-label="Latest notifications">
          <p className="dropdown-empty">You&apos;re all caught up!</p>
          <Link href="/notifications" className="dropdown-footer" onClick={() => setOpen(false)}>
            View All Notifications
          </Link>
        </div>
      )}
    </div>
  );
}
