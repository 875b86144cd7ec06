"use client";

import { usePathname } from "next/navigation";
import { useEffect } from "react";
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
  useEffect(() => {
    void takeNewBuildAtNavigation();
  }, [pathname]);
  return null;
}
