import { offlinePageHtml } from "./offline-page";

/**
 * The app's service worker (/sw.js, scope /), as the script the browser runs. Its version is the
 * build's id, so a new build ships a different script and the browser installs it; the new worker
 * waits until the page's next navigation asks it to take over (components/pwa/ServiceWorker.tsx),
 * never in the middle of a form.
 *
 * What it keeps: the app's static files only (/_next/static, which are named by their content, and
 * the icons). Never an API answer or a page: a shared computer must not show the last person's
 * messages to the next one. Pages always come from the network; when that fails, the offline page.
 * Push: shows the notification the server sent (lib/notifications/push), unless a visible tab of
 * this device shows that conversation now; a click focuses a tab of the app or opens one.
 */
export function serviceWorkerScript(version: string): string {
  const offline = offlinePageHtml("__RETRY__");
  return `"use strict";
const VERSION = ${JSON.stringify(version)};
const STATIC_CACHE = "static-" + VERSION;
const OFFLINE_HTML = ${JSON.stringify(offline)};
const STATIC_PATH = /^\\/(_next\\/static\\/|icon-192\\.png$|icon-512\\.png$|icon\\.svg$|apple-icon\\.png$|favicon\\.ico$)/;

self.addEventListener("install", () => {});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((name) => name !== STATIC_CACHE).map((name) => caches.delete(name)));
      if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("message", (event) => {
  const type = event.data && event.data.type;
  if (type === "skip-waiting") self.skipWaiting();
  if (type === "clear-caches") event.waitUntil(caches.keys().then((names) => Promise.all(names.map((name) => caches.delete(name)))));
});

function offlinePage(url) {
  const retry = url.pathname + url.search;
  const html = OFFLINE_HTML.replace("__RETRY__", retry.replace(/[&<>"']/g, (c) => "&#" + c.charCodeAt(0) + ";"));
  return new Response(html, { status: 503, headers: {
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'self'",
  } });
}

async function navigate(event, url) {
  try {
    const preloaded = await event.preloadResponse;
    return preloaded || (await fetch(event.request));
  } catch {
    return offlinePage(url);
  }
}

async function cachedStatic(request) {
  const cache = await caches.open(STATIC_CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") await cache.put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") return event.respondWith(navigate(event, url));
  if (STATIC_PATH.test(url.pathname)) event.respondWith(cachedStatic(request));
});

async function showsConversation(conversationId) {
  if (!conversationId) return false;
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  return windows.some((client) => client.visibilityState === "visible" && new URL(client.url).pathname === "/messages/" + conversationId);
}

// A push's link, when it is a path of this origin ("//host" is another origin to a URL parser).
function ownPath(url) {
  if (typeof url !== "string" || !url.startsWith("/")) return null;
  try {
    return new URL(url, self.location.origin).origin === self.location.origin ? url : null;
  } catch {
    return null;
  }
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {}
  event.waitUntil(
    (async () => {
      if (typeof data.unread === "number" && self.navigator.setAppBadge) {
        await (data.unread > 0 ? self.navigator.setAppBadge(data.unread) : self.navigator.clearAppBadge()).catch(() => {});
      }
      // The live connection already showed it in the open conversation.
      if (await showsConversation(data.conversationId)) return;
      await self.registration.showNotification(data.title || "Two of Us", {
        body: data.body || "",
        tag: data.tag || undefined,
        icon: "/icon-192.png",
        badge: "/icon-192.png",
        data: { url: ownPath(data.url) || "/notifications" },
      });
    })(),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data && event.notification.data.url || "/notifications", self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const same = windows.find((client) => client.url === target);
      if (same) return same.focus();
      const any = windows.find((client) => "navigate" in client);
      if (any) {
        const moved = await any.navigate(target).catch(() => null);
        if (moved) return moved.focus();
      }
      return self.clients.openWindow(target);
    })(),
  );
});
`;
}
