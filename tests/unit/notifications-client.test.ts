import { afterEach, describe, expect, it, vi } from "vitest";
import {
  fetchUnreadCount,
  isTransient,
  markNotificationsRead,
  NotificationsRequestError,
  onNotificationsChanged,
} from "@/lib/notifications/client";

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

  it("counts a 429 as 0 and does not retry it", async () => {
    const fetch = stubFetch(json(429, { error: { code: "RATE_LIMITED" } }));
    expect(await fetchUnreadCount()).toBe(0);
    expect(fetch).toHaveBeenCalledTimes(1);
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

describe("isTransient", () => {
  it("knows the spec's transient errors", () => {
    for (const message of [
      "Failed to fetch",
      "Network request failed",
      "read ECONNRESET",
      "connect ETIMEDOUT",
      "getaddrinfo ENOTFOUND api",
    ]) {
      expect(isTransient(new Error(message)), message).toBe(true);
    }
    expect(isTransient(new NotificationsRequestError(502))).toBe(true);
    expect(isTransient(new NotificationsRequestError(500))).toBe(false);
    expect(isTransient(new NotificationsRequestError(429))).toBe(false);
    expect(isTransient(new Error("Unexpected token"))).toBe(false);
  });
});

describe("markNotificationsRead", () => {
  /** The CSRF token is kept per page (tests/unit/csrf-client.test.ts), so it is served whenever asked. */
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

  it("PATCHes the chosen ids, or all, with the CSRF token, and tells listeners", async () => {
    const listener = vi.fn();
    const unsubscribe = onNotificationsChanged(listener);
    const sent = stubWithToken(json(200, { data: { marked_count: 2 } }), json(200, { data: { marked_count: 5 } }));
    expect(await markNotificationsRead({ ids: ["a", "b"] })).toBe(2);
    expect(await markNotificationsRead({ all: true })).toBe(5);
    const [[url, init = {}], [, all = {}]] = [sent()[0]!, sent()[1]!];
    expect(url).toBe("/api/notifications/read");
    expect(init.method).toBe("PATCH");
    expect(new Headers(init.headers).get("x-csrf-token")).toBe("t0k3n");
    expect(JSON.parse(String(init.body))).toEqual({ notification_ids: ["a", "b"] });
    expect(JSON.parse(String(all.body))).toEqual({ mark_all: true });
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
  });

  it("fails without telling listeners when the server refuses", async () => {
    const listener = vi.fn();
    const unsubscribe = onNotificationsChanged(listener);
    stubWithToken(json(400, { error: { code: "VALIDATION_ERROR" } }));
    await expect(markNotificationsRead({ ids: ["x"] })).rejects.toMatchObject({ status: 400 });
    expect(listener).not.toHaveBeenCalled();
    unsubscribe();
  });
});
