import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/** The browser's transport (lib/transport/client.ts): spec section 7's client behaviour on answers, section 9's retry constants. */

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });

/** A 200 whose body breaks off halfway (the connection dropped: a server restarting). */
const cutOff = () =>
  new Response(
    new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"data": [{"id": '));
        controller.error(new TypeError("network error"));
      },
    }),
    { status: 200, headers: { "Content-Type": "application/json" } },
  );

type Reply = Response | Error | "hang";

/**
 * A fake fetch: GET /api/csrf-token from `tokens` in order (a token "t0k3n" when none is left),
 * every other URL from `answers` in order.
 */
function fakeFetch({ tokens = [], answers = [] }: { tokens?: Reply[]; answers?: Reply[] }) {
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    const next = url === "/api/csrf-token" ? (tokens.shift() ?? json({ csrfToken: "t0k3n" })) : answers.shift();
    if (!next) throw new Error(`unexpected request to ${url}`);
    if (next === "hang")
      return new Promise<Response>((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason)));
    if (next instanceof Error) throw next;
    return next;
  });
  vi.stubGlobal("fetch", fetch);
  return {
    fetch,
    /** The calls other than the token's. */
    sent: () => fetch.mock.calls.filter(([url]) => url !== "/api/csrf-token"),
    tokenCalls: () => fetch.mock.calls.filter(([url]) => url === "/api/csrf-token").length,
  };
}

/** A fresh module: the token is kept per page, so every test starts on a new page. */
const client = () => import("@/lib/transport/client");
const headerOf = (init: RequestInit | undefined, name: string) => new Headers(init?.headers).get(name);

const refusedByCode = () => json({ error: { code: "CSRF_VALIDATION_FAILED", message: "Invalid CSRF token" } }, 403);

beforeEach(() => {
  vi.resetModules();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe("the CSRF token", () => {
  it("is read from csrfToken, or else token", async () => {
    const first = fakeFetch({ tokens: [json({ csrfToken: "modern", token: "modern" })], answers: [json({ ok: true })] });
    await (await client()).api("/api/thing", { method: "POST" });
    expect(headerOf(first.sent()[0]![1], "X-CSRF-Token")).toBe("modern");

    vi.resetModules();
    const second = fakeFetch({ tokens: [json({ token: "older-shape" })], answers: [json({ ok: true })] });
    await (await client()).api("/api/thing", { method: "POST" });
    expect(headerOf(second.sent()[0]![1], "X-CSRF-Token")).toBe("older-shape");
  });

  it("is fetched once per page and kept while it is accepted", async () => {
    const { fetch, sent, tokenCalls } = fakeFetch({ tokens: [json({ csrfToken: "kept" })], answers: [json({}), json({})] });
    const { api } = await client();
    await api("/api/a", { method: "PUT" });
    await api("/api/b", { method: "DELETE" });
    expect(sent().map(([, init]) => headerOf(init, "X-CSRF-Token"))).toEqual(["kept", "kept"]);
    expect(tokenCalls()).toBe(1);
    expect(fetch.mock.calls[0]![1]).toMatchObject({ credentials: "same-origin", cache: "no-store" });
  });

  it("is not kept when fetching it failed, so the next call asks again", async () => {
    const { sent, tokenCalls } = fakeFetch({
      tokens: [new TypeError("Failed to fetch"), json({ csrfToken: "second-try" })],
      answers: [json({ ok: true })],
    });
    const { api, ApiError } = await client();
    const failure = api("/api/thing", { method: "POST" });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ status: 0, code: "NETWORK_ERROR", message: "Network error" });
    await api("/api/thing", { method: "POST" });
    expect(headerOf(sent()[0]![1], "X-CSRF-Token")).toBe("second-try");
    expect(tokenCalls()).toBe(2);
  });

  it("fails with the answer's status, or 'Not authenticated' when the answer holds none", async () => {
    const { sent } = fakeFetch({
      tokens: [
        json({ error: { code: "INTERNAL_ERROR" } }, 500),
        json({ csrfToken: null, token: null }),
        new Response("<html>", { status: 200 }),
      ],
    });
    const { api } = await client();
    await expect(api("/api/x", { method: "POST" })).rejects.toMatchObject({ status: 500, message: "Request failed with status 500" });
    await expect(api("/api/x", { method: "POST" })).rejects.toMatchObject({ status: 401, message: "Not authenticated" });
    await expect(api("/api/x", { method: "POST" })).rejects.toMatchObject({ status: 401 });
    expect(sent()).toEqual([]);
  });

  it("is not asked for by reads, nor by calls to public routes", async () => {
    const { sent, tokenCalls } = fakeFetch({ answers: [json({ data: 1 }), json({ type: "reply" })] });
    const { api } = await client();
    expect(await api("/api/read")).toEqual({ data: 1 });
    expect(await api("/api/notifications/unsubscribe?token=x", { method: "POST", public: true })).toEqual({ type: "reply" });
    expect(tokenCalls()).toBe(0);
    expect(sent().map(([, init]) => headerOf(init, "X-CSRF-Token"))).toEqual([null, null]);
  });
});

describe("a refused CSRF token", () => {
  it.each([
    ["the code CSRF_VALIDATION_FAILED", refusedByCode],
    ["the error text 'Invalid CSRF token'", () => json({ error: "Invalid CSRF token" }, 403)],
  ])("is fetched afresh and the call sent once more on a 403 with %s", async (_, refused) => {
    const { sent, tokenCalls } = fakeFetch({
      tokens: [json({ csrfToken: "stale" }), json({ csrfToken: "fresh" })],
      answers: [refused(), json({ ok: true }, 201), json({})],
    });
    const { api } = await client();
    expect(await api("/api/thing", { method: "POST" })).toEqual({ ok: true });
    // The fresh token is the one kept.
    await api("/api/thing", { method: "POST" });
    expect(sent().map(([, init]) => headerOf(init, "X-CSRF-Token"))).toEqual(["stale", "fresh", "fresh"]);
    expect(tokenCalls()).toBe(2);
  });

  it("twice is thrown instead of retried again", async () => {
    const { sent } = fakeFetch({
      tokens: [json({ csrfToken: "one" }), json({ csrfToken: "two" })],
      answers: [refusedByCode(), refusedByCode()],
    });
    const { api } = await client();
    await expect(api("/api/thing", { method: "POST" })).rejects.toMatchObject({ status: 403, code: "CSRF_VALIDATION_FAILED" });
    expect(sent().map(([, init]) => headerOf(init, "X-CSRF-Token"))).toEqual(["one", "two"]);
  });

  it.each([
    [
      "another 403",
      json({ error: { code: "FORBIDDEN", message: "Not yours" } }, 403),
      { status: 403, code: "FORBIDDEN", message: "Not yours" },
    ],
    ["a 403 without JSON", new Response("<html>", { status: 403 }), { status: 403, message: "Request failed with status 403" }],
    ["the CSRF code on another status", json({ error: { code: "CSRF_VALIDATION_FAILED" } }, 400), { status: 400 }],
  ])("is not what %s is: thrown at once", async (_, answer, error) => {
    const { sent } = fakeFetch({ answers: [answer] });
    const { api } = await client();
    await expect(api("/api/thing", { method: "POST" })).rejects.toMatchObject(error);
    expect(sent()).toHaveLength(1);
  });
});

describe("api", () => {
  it("sends the token with the cookie, the method and a JSON body, and answers the JSON (null when there is none)", async () => {
    const { sent } = fakeFetch({ answers: [json({ data: 1 }, 202), new Response(null, { status: 204 })] });
    const { api } = await client();
    expect(await api("/api/thing", { method: "PATCH", body: { a: 1 } })).toEqual({ data: 1 });
    const [url, init] = sent()[0]!;
    expect(url).toBe("/api/thing");
    expect(init).toMatchObject({ method: "PATCH", body: JSON.stringify({ a: 1 }), credentials: "same-origin", cache: "no-store" });
    expect(headerOf(init, "X-CSRF-Token")).toBe("t0k3n");
    expect(headerOf(init, "Content-Type")).toBe("application/json");
    expect(headerOf(init, "Accept")).toBe("application/json");

    expect(await api("/api/thing", { method: "DELETE" })).toBeNull();
    expect(sent()[1]![1]).toMatchObject({ method: "DELETE", body: undefined });
  });

  it("sends a FormData as it is, for the browser to set the multipart type", async () => {
    const { sent } = fakeFetch({ answers: [json({ data: { url: "/x.jpg" } }, 201)] });
    const form = new FormData();
    form.set("photo", new Blob(["x"]), "p.jpg");
    await (await client()).api("/api/forum/photos", { method: "POST", body: form });
    expect(sent()[0]![1]!.body).toBe(form);
    expect(headerOf(sent()[0]![1], "Content-Type")).toBeNull();
  });

  it.each([
    [
      "the API's {error: {code, message, fields}}",
      json({ error: { code: "VALIDATION_ERROR", message: "Check the fields", fields: { bio: "Too short" } } }, 400),
      { status: 400, code: "VALIDATION_ERROR", message: "Check the fields", fields: { bio: "Too short" } },
    ],
    ["an {error: 'text'}", json({ error: "Not yours" }, 403), { status: 403, code: null, message: "Not yours", fields: {} }],
    ["a {message}", json({ message: "Gone" }, 410), { status: 410, message: "Gone" }],
    ["an answer without a message", new Response("<html>", { status: 409 }), { status: 409, message: "Request failed with status 409" }],
  ])("throws one ApiError read from %s", async (_, answer, error) => {
    fakeFetch({ answers: [answer] });
    const { api, ApiError } = await client();
    const failure = api("/api/thing", { method: "PUT" });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject(error);
  });

  it("passes the caller's abort through as an abort, before or during the call", async () => {
    const { sent } = fakeFetch({ answers: ["hang"] });
    const { api } = await client();
    await expect(api("/api/read", { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
    expect(sent()).toHaveLength(0);
    const controller = new AbortController();
    const pending = api("/api/read", { signal: controller.signal });
    await vi.waitFor(() => expect(sent()).toHaveLength(1));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });
});

describe("retries (section 9: 3 more attempts, 1000 ms doubling, capped at 5000 ms, plus up to 1000 ms of jitter)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    // Half of the jitter: 500 ms on every wait.
    vi.spyOn(Math, "random").mockReturnValue(0.5);
  });

  /** Runs `pending` to its end on the fake clock; answers the times (ms after the start) of each call other than the token's. */
  async function timeline(fetch: ReturnType<typeof fakeFetch>, run: () => Promise<unknown>) {
    const started = Date.now();
    const times: number[] = [];
    fetch.fetch.mockImplementation(
      (
        (original) =>
        async (...args: Parameters<typeof original>) => {
          if (args[0] !== "/api/csrf-token") times.push(Date.now() - started);
          return original(...args);
        }
      )(fetch.fetch.getMockImplementation()!),
    );
    const settled: Promise<{ value?: unknown; error?: unknown }> = run().then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    await vi.runAllTimersAsync();
    return { ...(await settled), times };
  }

  it("tries a read again on 502, 503, 504 and network failures, waiting 1500, 2500, 4500 ms", async () => {
    const fetch = fakeFetch({
      answers: [json({}, 502), new TypeError("Load failed"), json({ error: { code: "SERVICE_UNAVAILABLE" } }, 503), json({ data: 3 })],
    });
    const { api } = await client();
    const { value, times } = await timeline(fetch, () => api("/api/read"));
    expect(value).toEqual({ data: 3 });
    expect(times).toEqual([0, 1500, 4000, 8500]);
  });

  it("tries a read again when its answer broke off on the way, never answering it as an empty one", async () => {
    const fetch = fakeFetch({ answers: [cutOff(), json({ data: [] })] });
    const { api } = await client();
    const { value, times } = await timeline(fetch, () => api("/api/conversations"));
    expect(value).toEqual({ data: [] });
    expect(times).toEqual([0, 1500]);

    const post = fakeFetch({ answers: [cutOff()] });
    const { error } = await timeline(post, () => api("/api/thing", { method: "POST" }));
    expect(error).toMatchObject({ status: 0, code: "NETWORK_ERROR" });
  });

  it("caps the doubling at 5000 ms", async () => {
    const fetch = fakeFetch({ answers: [json({}, 503), json({}, 503), json({}, 503), json({}, 503), json({}, 503), json({ ok: 1 })] });
    const { api } = await client();
    const { times } = await timeline(fetch, () => api("/api/read", { retries: 5 }));
    expect(times.slice(1).map((time, index) => time - times[index]!)).toEqual([1500, 2500, 4500, 5500, 5500]);
  });

  it("gives up after 3 more attempts with the last answer, or 'Request failed after retries' when none came", async () => {
    const answering = fakeFetch({
      answers: [json({}, 503), json({}, 503), json({}, 504), json({ error: { message: "Still down" } }, 503)],
    });
    const { api } = await client();
    const { error, times } = await timeline(answering, () => api("/api/read"));
    expect(error).toMatchObject({ status: 503, message: "Still down" });
    expect(times).toHaveLength(4);

    const silent = fakeFetch({ answers: [1, 2, 3, 4].map(() => new TypeError("Failed to fetch")) });
    const { error: network } = await timeline(silent, () => api("/api/read"));
    expect(network).toMatchObject({ status: 0, code: "NETWORK_ERROR", message: "Request failed after retries" });
    expect(silent.sent()).toHaveLength(4);
  });

  it("fetches a fresh token once, not again on each try after a refusal", async () => {
    const fetch = fakeFetch({
      tokens: [json({ csrfToken: "stale" }), json({ csrfToken: "fresh" })],
      answers: [refusedByCode(), json({}, 503), json({ ok: 1 })],
    });
    const { api } = await client();
    expect((await timeline(fetch, () => api("/api/thing", { method: "PUT" }))).value).toEqual({ ok: 1 });
    expect(fetch.sent().map(([, init]) => headerOf(init, "X-CSRF-Token"))).toEqual(["stale", "fresh", "fresh"]);
    expect(fetch.tokenCalls()).toBe(2);
  });

  it("throws 500 and other 4xx at once", async () => {
    for (const status of [500, 400, 403, 404, 409]) {
      const fetch = fakeFetch({ answers: [json({ error: { code: "X", message: `status ${status}` } }, status)] });
      const { api } = await client();
      const { error } = await timeline(fetch, () => api("/api/read"));
      expect(error).toMatchObject({ status });
      expect(fetch.sent()).toHaveLength(1);
    }
  });

  it("does not repeat a POST that may have reached the server (network failure, 502, 504, a 503 not refused before starting)", async () => {
    const outcomeUnknown = () => json({ error: { code: "OUTCOME_UNKNOWN", message: "interrupted" } }, 503, { "Retry-After": "5" });
    for (const answer of [new TypeError("Failed to fetch"), json({}, 502), json({}, 504), json({}, 503), outcomeUnknown()]) {
      const fetch = fakeFetch({ answers: [answer] });
      const { api } = await client();
      const { error } = await timeline(fetch, () => api("/api/forum/posts", { method: "POST", body: {} }));
      expect(error).toBeDefined();
      expect(fetch.sent()).toHaveLength(1);
    }
    // Refused before starting: sent again after the Retry-After.
    const refused = json({ error: { code: "SERVICE_UNAVAILABLE" } }, 503, { "Retry-After": "5" });
    const fetch = fakeFetch({ answers: [refused, json({ data: 1 }, 201)] });
    const { api } = await client();
    const { value, times } = await timeline(fetch, () => api("/api/forum/posts", { method: "POST", body: {} }));
    expect(value).toEqual({ data: 1 });
    expect(times).toEqual([0, 5000]);
    // A read or an idempotent write is tried again whatever the 503 says.
    const put = fakeFetch({ answers: [outcomeUnknown(), json({ ok: 1 })] });
    expect((await timeline(put, () => api("/api/messages/m/reactions/heart", { method: "PUT" }))).value).toEqual({ ok: 1 });
  });

  it("sends a message once when the database connection broke during its commit, and again when the pool refused it first", async () => {
    // The server's own answers (lib/http/errors.ts): a reset connection, a pool known to be down.
    const { errorResponse } = await import("@/lib/http/errors");
    const { databaseUnavailable } = await import("@/db/supervised-pool");
    const reset = Object.assign(new Error("Failed query: commit"), {
      cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }),
    });
    const send = (fetch: ReturnType<typeof fakeFetch>) =>
      timeline(fetch, async () => (await client()).api("/api/conversations/k/messages", { method: "POST", body: { body: "hi" } }));

    const interrupted = fakeFetch({ answers: [errorResponse(reset), json({ data: "twice" }, 201)] });
    const { error } = await send(interrupted);
    expect(error).toMatchObject({ status: 503, code: "OUTCOME_UNKNOWN" });
    expect(interrupted.sent()).toHaveLength(1);

    const refused = fakeFetch({ answers: [errorResponse(databaseUnavailable()), json({ data: "once" }, 201)] });
    expect((await send(refused)).value).toEqual({ data: "once" });
    expect(refused.sent()).toHaveLength(2);
  });

  it("says 'Network error' when a POST got no answer, and when retries are off", async () => {
    const post = fakeFetch({ answers: [new TypeError("Failed to fetch")] });
    const { api } = await client();
    expect((await timeline(post, () => api("/api/x", { method: "POST" }))).error).toMatchObject({ status: 0, message: "Network error" });
    const read = fakeFetch({ answers: [new TypeError("Failed to fetch")] });
    expect((await timeline(read, () => api("/api/x", { retries: 0 }))).error).toMatchObject({ status: 0, message: "Network error" });
    expect(read.sent()).toHaveLength(1);
  });

  it("gives up on a request that has not answered in 30 s, and tries a read again", async () => {
    const fetch = fakeFetch({ answers: ["hang", json({ data: 1 })] });
    const { api } = await client();
    const { value, times } = await timeline(fetch, () => api("/api/read"));
    expect(value).toEqual({ data: 1 });
    expect(times).toEqual([0, 31_500]);
  });

  it("stops waiting when the caller aborts", async () => {
    const fetch = fakeFetch({ answers: [json({}, 503)] });
    const { api } = await client();
    const controller = new AbortController();
    const pending = api("/api/read", { signal: controller.signal }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(100);
    controller.abort();
    expect(await pending).toMatchObject({ name: "AbortError" });
    expect(fetch.sent()).toHaveLength(1);
  });
});

describe("429 (section 7: waits for Retry-After)", () => {
  beforeEach(() => vi.useFakeTimers());

  it("waits the seconds the answer says, then tries again, a POST too", async () => {
    const { sent } = fakeFetch({
      answers: [json({ error: { code: "RATE_LIMITED" } }, 429, { "Retry-After": "3" }), json({ data: 1 }, 201)],
    });
    const { api } = await client();
    const pending = api("/api/forum/posts", { method: "POST", body: {} });
    await vi.advanceTimersByTimeAsync(2999);
    expect(sent()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toEqual({ data: 1 });
    expect(sent()).toHaveLength(2);
  });

  it("reads a Retry-After date", async () => {
    vi.setSystemTime(new Date("2026-03-01T12:00:00Z"));
    const { sent } = fakeFetch({ answers: [json({}, 429, { "Retry-After": "Sun, 01 Mar 2026 12:00:05 GMT" }), json({ ok: 1 })] });
    const { api } = await client();
    const pending = api("/api/read");
    await vi.advanceTimersByTimeAsync(4999);
    expect(sent()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toEqual({ ok: 1 });
  });

  it.each([
    ["without Retry-After (section 8: 60 s)", {}],
    ["asking for longer than a person waits on a button", { "Retry-After": "1800" }],
  ])("throws the server's message at once %s", async (_, headers) => {
    const { sent } = fakeFetch({
      answers: [json({ error: { code: "RATE_LIMITED", message: "Too many requests. Please try again later." } }, 429, headers)],
    });
    const { api } = await client();
    await expect(api("/api/forum/posts", { method: "POST", body: {} })).rejects.toMatchObject({
      status: 429,
      code: "RATE_LIMITED",
      message: "Too many requests. Please try again later.",
    });
    expect(sent()).toHaveLength(1);
  });
});

describe("401 (section 7: a full logout)", () => {
  function stubWindow() {
    const replace = vi.fn();
    vi.stubGlobal("window", { location: { replace } });
    return replace;
  }

  it("sends the page to /signout, once, and throws the answer", async () => {
    const replace = stubWindow();
    fakeFetch({
      answers: [
        json({ error: { code: "UNAUTHENTICATED", message: "Not authenticated" } }, 401),
        json({ error: { code: "UNAUTHENTICATED" } }, 401),
      ],
    });
    const { api } = await client();
    await expect(api("/api/notifications/unread-count")).rejects.toMatchObject({ status: 401, code: "UNAUTHENTICATED" });
    await expect(api("/api/notifications/unread-count")).rejects.toMatchObject({ status: 401 });
    expect(replace.mock.calls).toEqual([["/signout"]]);
  });

  it("also when the session has no CSRF token any more", async () => {
    const replace = stubWindow();
    fakeFetch({ tokens: [json({ csrfToken: null, token: null })] });
    await expect((await client()).api("/api/x", { method: "POST" })).rejects.toMatchObject({ status: 401 });
    expect(replace).toHaveBeenCalledWith("/signout");
  });

  it("not when the token's answer broke off on the way: no answer came, the session may be fine", async () => {
    const replace = stubWindow();
    fakeFetch({ tokens: [cutOff()] });
    await expect((await client()).api("/api/x", { method: "POST" })).rejects.toMatchObject({ status: 0, code: "NETWORK_ERROR" });
    expect(replace).not.toHaveBeenCalled();
  });

  it("is an answer like any other on a public route, and after the page started to leave", async () => {
    const replace = stubWindow();
    fakeFetch({ answers: [json({ error: { code: "UNAUTHENTICATED" } }, 401), json({ error: { code: "UNAUTHENTICATED" } }, 401)] });
    const { api, leavePage } = await client();
    await expect(api("/api/x", { method: "POST", public: true })).rejects.toMatchObject({ status: 401 });
    expect(replace).not.toHaveBeenCalled();
    leavePage("/login?message=deleted");
    await expect(api("/api/x")).rejects.toMatchObject({ status: 401 });
    expect(replace.mock.calls).toEqual([["/login?message=deleted"]]);
  });
});

describe("the request manager (section 7: keyed by the method and the path with its query)", () => {
  beforeEach(() => vi.useFakeTimers());

  const limited = (headers: Record<string, string>) =>
    json({ error: { code: "RATE_LIMITED", message: "Too many requests. Please try again later." } }, 429, headers);

  it("after a 429 too long to sit out, refuses the same key without a request until its retry time: 'Rate limited. Please wait N seconds.'", async () => {
    const { sent } = fakeFetch({ answers: [limited({ "Retry-After": "90" }), json({ data: "other" }), json({ data: "again" }, 201)] });
    const { api, ApiError } = await client();
    await expect(api("/api/forum/posts", { method: "POST", body: {} })).rejects.toMatchObject({
      message: "Too many requests. Please try again later.",
    });
    await vi.advanceTimersByTimeAsync(30_500);
    const refused = api("/api/forum/posts", { method: "POST", body: {} });
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({ status: 429, code: "RATE_LIMITED", message: "Rate limited. Please wait 60 seconds." });
    // Another key (the method, the path or its query) is not the one refused.
    expect(await api("/api/forum/posts?cursor=x")).toEqual({ data: "other" });
    expect(sent()).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(59_000);
    await expect(api("/api/forum/posts", { method: "POST", body: {} })).rejects.toMatchObject({
      message: "Rate limited. Please wait 1 seconds.",
    });
    await vi.advanceTimersByTimeAsync(500);
    expect(await api("/api/forum/posts", { method: "POST", body: {} })).toEqual({ data: "again" });
    expect(sent()).toHaveLength(3);
  });

  it("without Retry-After, refuses the key for section 8's 60 s", async () => {
    const { sent } = fakeFetch({ answers: [limited({})] });
    const { api } = await client();
    await expect(api("/api/notifications/unread-count")).rejects.toMatchObject({ status: 429 });
    await expect(api("/api/notifications/unread-count")).rejects.toMatchObject({ message: "Rate limited. Please wait 60 seconds." });
    expect(sent()).toHaveLength(1);
  });

  it("refuses a write key's 61st call within 60 s without a request: 'Too many requests. Please slow down.'", async () => {
    const { sent } = fakeFetch({ answers: Array.from({ length: 62 }, () => json({ ok: 1 })) });
    const { api, ApiError, MAX_WRITES_PER_WINDOW } = await client();
    expect(MAX_WRITES_PER_WINDOW).toBe(60);
    for (let call = 0; call < 60; call++) {
      await api("/api/messages/m/reactions/heart", { method: "PUT" });
      await vi.advanceTimersByTimeAsync(500);
    }
    const refused = api("/api/messages/m/reactions/heart", { method: "PUT" });
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({ status: 429, code: "RATE_LIMITED", message: "Too many requests. Please slow down." });
    // The other method on the same path is its own key.
    await api("/api/messages/m/reactions/heart", { method: "DELETE" });
    expect(sent()).toHaveLength(61);
    // The first call (sent 30 s ago) leaves the window 60 s after it was sent.
    await vi.advanceTimersByTimeAsync(29_999);
    await expect(api("/api/messages/m/reactions/heart", { method: "PUT" })).rejects.toMatchObject({ status: 429 });
    await vi.advanceTimersByTimeAsync(1);
    await api("/api/messages/m/reactions/heart", { method: "PUT" });
    expect(sent()).toHaveLength(62);
  });

  it("never limits reads: the live polls and the stream's loads are not a person's pace", async () => {
    const { sent } = fakeFetch({ answers: Array.from({ length: 100 }, () => json({ data: [] })) });
    const { api } = await client();
    for (let call = 0; call < 100; call++) await api("/api/conversations");
    expect(sent()).toHaveLength(100);
  });

  it("shares one request among identical reads in flight, each caller with its own copy of the answer", async () => {
    const { sent } = fakeFetch({ answers: [json({ data: { items: [1] } }), json({ data: "later" })] });
    const { api } = await client();
    const [first, second] = await Promise.all([
      api<{ data: { items: number[] } }>("/api/notifications?limit=5&offset=0"),
      api<{ data: { items: number[] } }>("/api/notifications?limit=5&offset=0"),
    ]);
    expect(first).toEqual({ data: { items: [1] } });
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    expect(sent()).toHaveLength(1);
    // Nothing is kept once it has answered (no caching: live data would go stale).
    expect(await api("/api/notifications?limit=5&offset=0")).toEqual({ data: "later" });
    expect(sent()).toHaveLength(2);
  });

  it("shares a failure too, and never shares a write", async () => {
    const { sent } = fakeFetch({
      answers: [json({ error: { code: "NOT_FOUND", message: "Gone" } }, 404), json({ ok: 1 }), json({ ok: 2 })],
    });
    const { api } = await client();
    const reads = [api("/api/conversations/c"), api("/api/conversations/c")];
    for (const read of reads) await expect(read).rejects.toMatchObject({ status: 404, message: "Gone" });
    const writes = await Promise.all([api("/api/x", { method: "POST" }), api("/api/x", { method: "POST" })]);
    expect(writes).toEqual([{ ok: 1 }, { ok: 2 }]);
    expect(sent()).toHaveLength(3);
  });

  it("lets one caller abort without ending the request the others wait on; the last abort ends it", async () => {
    const { sent } = fakeFetch({ answers: ["hang", json({ data: "fresh" })] });
    const { api } = await client();
    const one = new AbortController();
    const two = new AbortController();
    const first = api("/api/read", { signal: one.signal }).catch((error: unknown) => error);
    const second = api("/api/read", { signal: two.signal }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(0);
    one.abort();
    expect(await first).toMatchObject({ name: "AbortError" });
    expect(sent()[0]![1]!.signal!.aborted).toBe(false);
    two.abort();
    expect(await second).toMatchObject({ name: "AbortError" });
    expect(sent()[0]![1]!.signal!.aborted).toBe(true);
    // A read after them all sends its own request.
    expect(await api("/api/read")).toEqual({ data: "fresh" });
    expect(sent()).toHaveLength(2);
  });

  it("does not share a read that was in flight when a write answered: it may not show the write", async () => {
    let answerFirst: (response: Response) => void = () => undefined;
    const { fetch, sent } = fakeFetch({ answers: [json({ ok: 1 }), json({ data: "after" })] });
    const original = fetch.getMockImplementation()!;
    fetch.mockImplementationOnce(() => new Promise<Response>((resolve) => (answerFirst = resolve)));
    fetch.mockImplementation(original);
    const { api } = await client();
    const before = api("/api/conversations");
    await api("/api/conversations/c/messages", { method: "POST", body: { body: "hi" } });
    const after = api("/api/conversations");
    answerFirst(json({ data: "before" }));
    expect(await before).toEqual({ data: "before" });
    expect(await after).toEqual({ data: "after" });
    expect(sent()).toHaveLength(3);
  });
});
