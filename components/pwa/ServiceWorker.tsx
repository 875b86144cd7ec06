"use client";

import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";
import { registerServiceWorker, takeNewBuildAtNavigation } from "@/lib/pwa/client";

/**
 * Registers the app's service worker (/sw.js) on signed-in pages. A new build's worker installs in
 * the background and takes over at the next navigation (a change of path here), never while a
 * form is being filled on the page: nothing reloads.
 */
export function ServiceWorker() {
  const pathname = usePathname();
  useEffect(() => {
    void registerServiceWorker();
  }, []);
  // Not at the page's first paint (its load was the navigation the browser's own check serves).
  const shownPath = useRef(pathname);
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    void takeNewBuildAtNavigation();
  }, [pathname]);
  return null;
}
