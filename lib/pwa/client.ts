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

/** Told when this tab forgets its person (forgetThisDevice). */
const forgetting = new EventTarget();
const FORGOTTEN = "forgotten";

/**
 * Signing out or deleting the account (spec, section 4: "Sign-out or user deletion clears user,
 * profile, couple and saved forms"): what the pages kept in local and session storage goes at once,
 * this device's push subscription ends (the server forgets it too, with the session), the count on
 * the app's icon and the notifications the worker showed go, and every cache the worker filled is
 * emptied, so the next person at this computer starts clean.
 */
export async function forgetThisDevice(): Promise<void> {
  // First: a count on its way (a live event) no longer puts the icon's number back (appBadgeOfPage).
  forgetting.dispatchEvent(new Event(FORGOTTEN));
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
  // Refused where the browser keeps no caches for the page (a private window): nothing to empty.
  if ("caches" in window) {
    const names = await caches.keys().catch((): string[] => []);
    await Promise.allSettled(names.map((name) => caches.delete(name)));
  }
}

/**
 * Sign-out's two halves, the server's (`endSession`: the session and the push subscription made
 * under it end) and this device's (forgetThisDevice), run side by side and each to its end
 * whatever the other does: one failing never cuts the other's cleanup short.
 */
export async function signOutThisDevice(endSession: () => Promise<unknown>): Promise<void> {
  await Promise.allSettled([endSession(), forgetThisDevice()]);
}

/** The count on the installed app's icon as a signed-in page sets it (appBadgeOfPage). */
export type AppBadge = { show(count: number): void; close(): void };

/**
 * The icon's count for the page's person, until this device forgets them (sign-out or deletion,
 * in this tab, or in another, whose localStorage.clear() all tabs hear as a storage event without
 * a key): a count that arrives after (a live event on its way) no longer puts the number back on a
 * signed-out device. Refused where the page is not an installed app or the user said no. `close`
 * when the page goes; the next person's page takes a new one.
 */
export function appBadgeOfPage(): AppBadge {
  let forgotten = false;
  const forget = () => {
    forgotten = true;
  };
  const onStorage = (event: Event) => {
    if ((event as StorageEvent).key === null) forget();
  };
  forgetting.addEventListener(FORGOTTEN, forget);
  window.addEventListener("storage", onStorage);
  return {
    show(count) {
      if (forgotten) return;
      const badging = navigator as Navigator & Badging;
      (count > 0 ? badging.setAppBadge?.(count) : badging.clearAppBadge?.())?.catch(() => {});
    },
    close() {
      forgetting.removeEventListener(FORGOTTEN, forget);
      window.removeEventListener("storage", onStorage);
    },
  };
}
