/** The browser's side of the app's service worker (/sw.js): registering it, and forgetting what this browser holds. Browser only. */

export const SERVICE_WORKER_URL = "/sw.js";

/** The Badging API (the count on the installed app's icon), where the browser has it. */
export type Badging = { setAppBadge?: (count?: number) => Promise<void>; clearAppBadge?: () => Promise<void> };

/** Whose this browser's push subscription is (lib/notifications/push/client.ts keeps it on for them alone). */
export const PUSH_OWNER_KEY = "push-device-owner";

/** Registers the worker with scope `/`; null where the browser has none (or refuses, e.g. a private window). */
export async function registerServiceWorker(): Promise<ServiceWorkerRegistration | null> {
  if (!("serviceWorker" in navigator)) return null;
  return navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: "/", updateViaCache: "none" }).catch(() => null);
}

/**
 * At a navigation (never in the middle of a form): a new build's worker that is waiting takes over,
 * and the browser checks /sw.js for a newer one. The registration is read afresh each time, so a
 * navigation that comes before this page's own registration has answered still hands over.
 */
export async function takeNewBuildAtNavigation(): Promise<void> {
  if (!("serviceWorker" in navigator)) return;
  const registration = await navigator.serviceWorker.getRegistration("/").catch(() => undefined);
  registration?.waiting?.postMessage({ type: "skip-waiting" });
  await registration?.update().catch(() => undefined);
}

/**
 * Signing out or deleting the account (spec, section 4: "Sign-out or user deletion clears user,
 * profile, couple and saved forms"): what the pages kept in local and session storage goes at once,
 * this device's push subscription ends (the server forgets it too, with the session), the count on
 * the app's icon and the notifications the worker showed go, and every cache the worker filled is
 * emptied, so the next person at this computer starts clean.
 */
export async function forgetThisDevice(): Promise<void> {
  // The theme is a device preference, not account data: it stays. PUSH_OWNER_KEY goes with the
  // rest: nobody's device now, the next person signing in here is never sent the last one's pushes.
  const theme = localStorage.getItem("theme");
  localStorage.clear();
  if (theme) localStorage.setItem("theme", theme);
  sessionStorage.clear();
  if ("serviceWorker" in navigator) {
    const registration = await navigator.serviceWorker.getRegistration("/").catch(() => undefined);
    const subscription = await registration?.pushManager?.getSubscription().catch(() => null);
    await subscription?.unsubscribe().catch(() => false);
    // Their words, and on some systems the icon's count too, until dismissed (where the worker can list them: like pushManager, not everywhere).
    const shown = await registration?.getNotifications?.().catch(() => []);
    for (const notification of shown ?? []) notification.close();
  }
  // After the subscription ends, so no push can set the count again; refused where the page is no installed app.
  await (navigator as Navigator & Badging).clearAppBadge?.().catch(() => {});
  if ("caches" in window) {
    const names = await caches.keys();
    await Promise.all(names.map((name) => caches.delete(name)));
  }
}
