"use client";

import { useEffect, useRef } from "react";
import { useUnreadCount } from "@/components/notifications/hooks";
import { titleWithUnread } from "@/lib/notifications/rules";
import { appBadgeOfPage, type AppBadge } from "@/lib/pwa/client";

/**
 * The unread count in the tab's title ('(3) Messages · Two of Us') and on the installed app's icon
 * (the Badging API, where the browser has it): the bell's number, which a push sets on the icon
 * too while the app is closed (lib/notifications/push/deliver.ts), so both always say the same.
 * Fed by the browser's one stream, every tab shows it at once. Renders nothing.
 */
export function UnreadTitle() {
  const unread = useUnreadCount();

  useEffect(() => {
    const apply = () => {
      const next = titleWithUnread(document.title, unread);
      if (document.title !== next) document.title = next;
    };
    apply();
    // A navigation sets the page's own title: the count goes back before it.
    const observer = new MutationObserver(apply);
    observer.observe(document.head, { childList: true, subtree: true, characterData: true });
    return () => {
      observer.disconnect();
      document.title = titleWithUnread(document.title, 0);
    };
  }, [unread]);

  // The icon's count, until this device forgets its person (appBadgeOfPage): a count arriving
  // just after sign-out, here or in another tab, never puts it back.
  const badge = useRef<AppBadge | null>(null);
  useEffect(() => {
    const pageBadge = appBadgeOfPage();
    badge.current = pageBadge;
    return () => pageBadge.close();
  }, []);
  useEffect(() => {
    badge.current?.show(unread);
  }, [unread]);

  return null;
}
