import { afterEach, describe, expect, it, vi } from "vitest";
import { subscribeLive } from "@/lib/live/client/use-live";
import { fetchUnreadCount, markNotificationsRead, pageKey, UNREAD_KEY } from "@/lib/notifications/client";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

function stubFetch(...answers: (Response | Error)[]) {
  const fetch = vi.fn(async () => {
    const next = answers.shift();
    if (!next) throw new Error("unexpected request");
    if (next instanceof Error) throw next;
    return next;
  });
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("fetchUnreadCount", () => {
  it("reads data.unread_count", async () => {
    stubFetch(json(200, { data: { unread_count: 7 } }));
    expect(await fetchUnreadCount()).toBe(7);
  });

  it("counts a 429 as 0 and does not retry it, nor ask again before its retry time (60 s without Retry-After)", async () => {
    vi.useFakeTimers();
    const fetch = stubFetch(json(429, { error: { code: "RATE_LIMITED" } }), json(200, { data: { unread_count: 4 } }));
    expect(await fetchUnreadCount()).toBe(0);
    expect(await fetchUnreadCount()).toBe(0);
    expect(fetch).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(60_000);
    expect(await fetchUnreadCount()).toBe(4);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it("retries transient failures twice, then gives up", async () => {
    vi.useFakeTimers();
    const fetch = stubFetch(new TypeError("Failed to fetch"), json(503, {}), json(200, { data: { unread_count: 3 } }));
    const pending = fetchUnreadCount();
    await vi.runAllTimersAsync();
    expect(await pending).toBe(3);
    expect(fetch).toHaveBeenCalledTimes(3);

    stubFetch(json(502, {}), json(504, {}), json(503, {}));
    const failing = expect(fetchUnreadCount()).rejects.toMatchObject({ status: 503 });
    await vi.runAllTimersAsync();
    await failing;
  });

  it("does not retry other errors", async () => {
    const fetch = stubFetch(json(401, { error: { code: "UNAUTHENTICATED" } }));
    await expect(fetchUnreadCount()).rejects.toMatchObject({ status: 401 });
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe("the unread count's transient failures (section 8)", () => {
  it.each([
    ["Failed to fetch", new TypeError("Failed to fetch")],
    ["Network request failed", new TypeError("Network request failed")],
    ["ECONNRESET", new Error("read ECONNRESET")],
    ["ETIMEDOUT", new Error("connect ETIMEDOUT")],
    ["ENOTFOUND", new Error("getaddrinfo ENOTFOUND api")],
    ["HTTP 502", json(502, {})],
    ["HTTP 503", json(503, {})],
    ["HTTP 504", json(504, {})],
  ])("tries %s again", async (_, failure) => {
    vi.useFakeTimers();
    const fetch = stubFetch(failure, json(200, { data: { unread_count: 2 } }));
    const pending = fetchUnreadCount();
    await vi.runAllTimersAsync();
    expect(await pending).toBe(2);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it("does not try a 500 again, nor an answer it cannot read", async () => {
    const fetch = stubFetch(json(500, { error: { code: "INTERNAL_ERROR" } }));
    await expect(fetchUnreadCount()).rejects.toMatchObject({ status: 500 });
    expect(fetch).toHaveBeenCalledTimes(1);
    const unreadable = stubFetch(new Response("<html>", { status: 200 }));
    await expect(fetchUnreadCount()).rejects.toThrow();
    expect(unreadable).toHaveBeenCalledTimes(1);
  });
});

describe("markNotificationsRead", () => {
  /** The CSRF token is kept per page (tests/unit/http-client.test.ts), so it is served whenever asked. */
  function stubWithToken(...answers: Response[]) {
    const fetch = vi.fn(async (url: string, _init?: RequestInit) => {
      if (url === "/api/csrf-token") return json(200, { csrfToken: "t0k3n" });
      const next = answers.shift();
      if (!next) throw new Error("unexpected request");
      return next;
    });
    vi.stubGlobal("fetch", fetch);
    return () => fetch.mock.calls.filter(([url]) => url !== "/api/csrf-token");
  }

  /** The bell's count and a page of the list, shown on a fake visible page: each loads once, then again whenever invalidated. */
  function showNotifications() {
    vi.stubGlobal("document", Object.assign(new EventTarget(), { visibilityState: "visible" }));
    vi.stubGlobal("window", new EventTarget());
    const count = vi.fn(async () => 1);
    const list = vi.fn(async () => []);
    const unsubscribes = [
      subscribeLive(UNREAD_KEY, count, {}, () => {}),
      subscribeLive(pageKey({ limit: 20, offset: 0 }), list, {}, () => {}),
    ];
    /** How many times both were loaded again. */
    const reloads = () => Math.min(count.mock.calls.length, list.mock.calls.length) - 1;
    return { reloads, unsubscribe: () => unsubscribes.forEach((unsubscribe) => unsubscribe()) };
  }

  it("PATCHes the chosen ids, or all, with the CSRF token, and loads the shown count and list again", async () => {
    const { reloads, unsubscribe } = showNotifications();
    const sent = stubWithToken(json(200, { data: { marked_count: 2 } }), json(200, { data: { marked_count: 5 } }));
    expect(await markNotificationsRead({ ids: ["a", "b"] })).toBe(2);
    expect(await markNotificationsRead({ all: true, upTo: "2026-05-01T10:00:00.123Z" })).toBe(5);
    const [[url, init = {}], [, all = {}]] = [sent()[0]!, sent()[1]!];
    expect(url).toBe("/api/notifications/read");
    expect(init.method).toBe("PATCH");
    expect(new Headers(init.headers).get("x-csrf-token")).toBe("t0k3n");
    expect(JSON.parse(String(init.body))).toEqual({ notification_ids: ["a", "b"] });
    expect(JSON.parse(String(all.body))).toEqual({ mark_all: true, up_to: "2026-05-01T10:00:00.123Z" });
    expect(reloads()).toBe(2);
    unsubscribe();
  });

  it("sends all up to the newest notification shown as mark_all with up_to: what arrived after it stays unread", async () => {
    const sent = stubWithToken(json(200, { data: { marked_count: 3 } }));
    expect(await markNotificationsRead({ all: true, upTo: "2026-12-06T13:40:11.123Z" })).toBe(3);
    expect(JSON.parse(String(sent()[0]![1]!.body))).toEqual({ mark_all: true, up_to: "2026-12-06T13:40:11.123Z" });
  });

  it("fails without loading anything again when the server refuses", async () => {
    const { reloads, unsubscribe } = showNotifications();
    stubWithToken(json(400, { error: { code: "VALIDATION_ERROR" } }));
    await expect(markNotificationsRead({ ids: ["x"] })).rejects.toMatchObject({ status: 400 });
    expect(reloads()).toBe(0);
    unsubscribe();
  });
});
