import { runInNewContext } from "node:vm";
import { describe, expect, it, vi } from "vitest";
import { serviceWorkerScript } from "@/lib/pwa/worker-script";

/**
 * The service worker's script run in a stand-in of its global scope: what it answers from its
 * cache, what it leaves to the network, which pushes it shows, and where a click leads (a
 * headless browser cannot click a system notification, so the click is checked here).
 */

type Listener = (event: Record<string, unknown>) => void;
type WindowClient = { url: string; visibilityState: string; focus: ReturnType<typeof vi.fn>; navigate: ReturnType<typeof vi.fn> };

function worker(windows: WindowClient[] = []) {
  const listeners = new Map<string, Listener>();
  const shown: { title: string; options: Record<string, unknown> }[] = [];
  const cache = new Map<string, unknown>();
  const self = {
    location: { origin: "https://app.example" },
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
    registration: {
      showNotification: vi.fn(async (title: string, options: Record<string, unknown>) => void shown.push({ title, options })),
    },
    clients: { matchAll: vi.fn(async () => windows), openWindow: vi.fn(async (url: string) => ({ url })), claim: vi.fn() },
    navigator: { setAppBadge: vi.fn(async () => undefined), clearAppBadge: vi.fn(async () => undefined) },
    skipWaiting: vi.fn(),
  };
  const caches = {
    open: async () => ({
      match: async (request: { url: string }) => cache.get(request.url),
      put: async (request: { url: string }, response: unknown) => void cache.set(request.url, response),
    }),
    keys: async () => ["static-build-1"],
    delete: vi.fn(async () => true),
  };
  const fetch = vi.fn(async () => ({ ok: true, type: "basic", clone: () => "copy" }));
  runInNewContext(serviceWorkerScript("build-1"), { self, caches, fetch, Response, URL, Promise, console });
  const answered: string[] = [];
  const dispatch = async (type: string, event: Record<string, unknown>) => {
    let done: Promise<unknown> = Promise.resolve();
    listeners.get(type)!({
      ...event,
      waitUntil: (work: Promise<unknown>) => (done = work),
      respondWith: (answer: Promise<unknown>) => {
        answered.push((event.request as { url: string }).url);
        done = answer;
      },
    });
    return done;
  };
  return { self, shown, cache, fetch, dispatch, caches, answered };
}

const push = (data: unknown) => ({ data: { json: () => data } });
const windowAt = (url: string, visibilityState = "visible"): WindowClient => ({
  url,
  visibilityState,
  focus: vi.fn(async () => "focused"),
  navigate: vi.fn(async (to: string) => windowAt(to)),
});

describe("the service worker script", () => {
  it("keeps the build's static files and never an API answer or a page", async () => {
    const sw = worker();
    for (const url of [
      "https://app.example/api/conversations",
      "https://app.example/api/images/a.jpg",
      "https://other.example/_next/static/x.js",
    ])
      await sw.dispatch("fetch", { request: { url, method: "GET", mode: "cors" } });
    // Left to the browser and the network: the worker does not even answer them.
    expect(sw.answered).toEqual([]);
    expect(sw.cache.size).toBe(0);
    await sw.dispatch("fetch", { request: { url: "https://app.example/_next/static/chunks/app.js", method: "GET", mode: "no-cors" } });
    expect([...sw.cache.keys()]).toEqual(["https://app.example/_next/static/chunks/app.js"]);
  });

  it("answers a navigation that fails with the offline page, its retry pointing back", async () => {
    const sw = worker();
    sw.fetch.mockRejectedValueOnce(new TypeError("offline"));
    const answer = (await sw.dispatch("fetch", {
      request: { url: "https://app.example/forum?sort=new", method: "GET", mode: "navigate" },
      preloadResponse: Promise.resolve(undefined),
    })) as Response;
    expect(answer.status).toBe(503);
    const html = await answer.text();
    expect(html).toContain("You are offline");
    expect(html).toContain('href="/forum?sort=new"');
    expect(answer.headers.get("Content-Security-Policy")).toContain("default-src 'none'");
  });

  it("shows a push with its link and sets the badge, unless a visible tab shows that conversation", async () => {
    const sw = worker([windowAt("https://app.example/messages/c-2")]);
    await sw.dispatch(
      "push",
      push({
        title: "New messages from Ana & Rui",
        body: "3 new messages from Ana & Rui",
        url: "/messages/c-1",
        conversationId: "c-1",
        unread: 3,
      }),
    );
    expect(sw.shown).toMatchObject([
      { title: "New messages from Ana & Rui", options: { body: "3 new messages from Ana & Rui", data: { url: "/messages/c-1" } } },
    ]);
    expect(sw.self.navigator.setAppBadge).toHaveBeenCalledWith(3);
    await sw.dispatch("push", push({ title: "New messages from Leo & Mia", url: "/messages/c-2", conversationId: "c-2", unread: 4 }));
    expect(sw.shown).toHaveLength(1);
    // A link elsewhere than this origin is never followed.
    for (const url of ["https://evil.example/", "//evil.example/x", "/\\evil.example/x"]) {
      await sw.dispatch("push", push({ title: "x", url }));
      expect(sw.shown.at(-1)!.options.data).toEqual({ url: "/notifications" });
    }
  });

  it("a click focuses the tab already on that page, else takes an open tab there, else opens one", async () => {
    const click = (url: string) => ({ notification: { close: vi.fn(), data: { url } } });
    const there = windowAt("https://app.example/messages/c-1");
    let sw = worker([windowAt("https://app.example/forum"), there]);
    await sw.dispatch("notificationclick", click("/messages/c-1"));
    expect(there.focus).toHaveBeenCalled();

    const elsewhere = windowAt("https://app.example/forum");
    sw = worker([elsewhere]);
    await sw.dispatch("notificationclick", click("/messages/c-1"));
    expect(elsewhere.navigate).toHaveBeenCalledWith("https://app.example/messages/c-1");

    sw = worker([]);
    await sw.dispatch("notificationclick", click("/messages/c-1"));
    expect(sw.self.clients.openWindow).toHaveBeenCalledWith("https://app.example/messages/c-1");
  });

  it("takes over when the page asks at a navigation, and empties its caches when asked", async () => {
    const sw = worker();
    await sw.dispatch("message", { data: { type: "skip-waiting" } });
    expect(sw.self.skipWaiting).toHaveBeenCalled();
    await sw.dispatch("message", { data: { type: "clear-caches" } });
    expect(sw.caches.delete).toHaveBeenCalledWith("static-build-1");
  });
});
