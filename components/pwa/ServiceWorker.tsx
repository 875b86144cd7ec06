"use client";

import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";
import { keepThisDeviceOn } from "@/lib/notifications/push/client";
import { registerServiceWorker, takeNewBuildAtNavigation } from "@/lib/pwa/client";

/**
 * Registers the app's service worker (/sw.js) on signed-in pages, and keeps this device's push on
 * for the person it was on for (`pushKey`: the server's VAPID key, null while push is off;
 * `session`: the page's session, lib/notifications/push/subscriptions.ts sessionMark). A new
 * build's worker installs in the background and takes over at the next navigation (a change of
 * path here), never while a form is being filled on the page: nothing reloads.
 */
export function ServiceWorker({ userId, pushKey, session }: { userId: string; pushKey: string | null; session: string }) {
  const pathname = usePathname();
  useEffect(() => {
    void registerServiceWorker().then((registration) => {
      if (registration && pushKey) void keepThisDeviceOn(userId, pushKey, session);
    });
  }, [userId, pushKey, session]);
  // Not at the page's first paint (its load was the navigation the browser's own check serves).
  const shownPath = useRef(pathname);
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    void takeNewBuildAtNavigation();
  }, [pathname]);
  return null;
}
