"use client";

import { useEffect } from "react";
import { useLive } from "@/lib/live/client/use-live";
import { fetchUnreadMessages, UNREAD_MESSAGES_KEY } from "@/lib/messages/client/api";
import { titleWithUnread, UNREAD_POLL_MS, UNREAD_STALE_MS } from "@/lib/notifications/rules";
import { useLiveStream } from "@/lib/registry/live-client";

type Badging = { setAppBadge?: (count?: number) => Promise<void>; clearAppBadge?: () => Promise<void> };

/**
 * The unread messages in the tab's title ('(3) Messages · Two of Us') and on the installed app's
 * icon (the Badging API, where the browser has it), the same count as the navigation's badge, fed
 * by the browser's one stream so every tab shows it at once. Renders nothing.
 */
export function UnreadTitle() {
  useLiveStream();
  const state = useLive(UNREAD_MESSAGES_KEY, fetchUnreadMessages, { pollMs: UNREAD_POLL_MS, staleMs: UNREAD_STALE_MS });
  const unread = state.status === "ready" ? state.value : 0;

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

  useEffect(() => {
    const badging = navigator as Navigator & Badging;
    const done = unread > 0 ? badging.setAppBadge?.(unread) : badging.clearAppBadge?.();
    // Refused where the page is not an installed app or the user said no: the title still says it.
    done?.catch(() => {});
  }, [unread]);

  return null;
}
