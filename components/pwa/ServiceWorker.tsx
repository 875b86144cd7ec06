"use client";

import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";
import { registerServiceWorker } from "@/lib/pwa/client";

/**
 * Registers the app's service worker (/sw.js) on signed-in pages. A new build's worker installs in
 * the background and takes over at the next navigation (a change of path here), never while a
 * form is being filled on the page: nothing reloads.
 */
export function ServiceWorker() {
  const pathname = usePathname();
  const registration = useRef<ServiceWorkerRegistration | null>(null);
  useEffect(() => {
    void registerServiceWorker().then((registered) => (registration.current = registered));
  }, []);
  useEffect(() => {
    registration.current?.waiting?.postMessage({ type: "skip-waiting" });
    void registration.current?.update().catch(() => undefined);
  }, [pathname]);
  return null;
}
