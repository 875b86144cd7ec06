"use client";

import { useEffect } from "react";

type Badging = { setAppBadge?: (count: number) => Promise<void>; clearAppBadge?: () => Promise<void> };

/**
 * The installed app's icon shows the unread count (the Badging API, where the platform has it):
 * kept in step while a page is open; with the app closed, each push carries the count (lib/pwa/worker-script.ts).
 */
export function useAppBadge(unread: number): void {
  useEffect(() => {
    const badging = navigator as Navigator & Badging;
    if (!badging.setAppBadge || !badging.clearAppBadge) return;
    void (unread > 0 ? badging.setAppBadge(unread) : badging.clearAppBadge()).catch(() => undefined);
  }, [unread]);
}
