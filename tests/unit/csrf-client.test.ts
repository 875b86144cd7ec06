import { afterEach, describe, expect, it, vi } from "vitest";

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

/** Answers GET /api/csrf-token from `tokens` in order; any other URL is not expected. */
function serveTokens(...tokens: (Response | Error)[]) {
  const fetch = vi.fn(async (url: string, _init?: RequestInit) => {
    const answer = url === "/api/csrf-token" ? tokens.shift() : undefined;
    if (!answer) throw new Error(`unexpected request to ${url}`);
    if (answer instanceof Error) throw answer;
    return answer;
  });
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

/** A fresh module: the token is kept per page, so every test starts on a new page. */
const csrfClient = () => import("@/lib/http/csrf-client");

/** A sender that records the tokens it was given and answers `answers` in order. */
function sender(...answers: { status: number; json: unknown }[]) {
  const tokens: string[] = [];
  const send = async (token: string) => {
    tokens.push(token);
    const answer = answers.shift();
    if (!answer) throw new Error("unexpected send");
    return answer;
  };
  return { tokens, send };
}

const accepted = { status: 200, json: { ok: true } };
const refusedByCode = { status: 403, json: { error: { code: "CSRF_VALIDATION_FAILED", message: "Invalid CSRF token" } } };

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe("the CSRF token", () => {
  it("is read from csrfToken, or else token", async () => {
    serveTokens(json({ csrfToken: "modern", token: "modern" }));
    const first = sender(accepted);
    await (await csrfClient()).withCsrfRetry(first.send);
    expect(first.tokens).toEqual(["modern"]);

    vi.resetModules();
    serveTokens(json({ token: "older-shape" }));
    const second = sender(accepted);
    await (await csrfClient()).withCsrfRetry(second.send);
    expect(second.tokens).toEqual(["older-shape"]);
  });

  it("is fetched once per page and kept while it is accepted", async () => {
    const fetch = serveTokens(json({ csrfToken: "kept" }));
    const { withCsrfRetry } = await csrfClient();
    const calls = sender(accepted, accepted);
    await withCsrfRetry(calls.send);
    await withCsrfRetry(calls.send);
    expect(calls.tokens).toEqual(["kept", "kept"]);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0]![1]).toMatchObject({ credentials: "same-origin", cache: "no-store" });
  });

  it("is not kept when fetching it failed, so the next call asks again", async () => {
    const fetch = serveTokens(new TypeError("Failed to fetch"), json({ csrfToken: "second-try" }));
    const { withCsrfRetry, CsrfTokenError } = await csrfClient();
    const calls = sender(accepted);
    const failure = withCsrfRetry(calls.send);
    await expect(failure).rejects.toBeInstanceOf(CsrfTokenError);
    await expect(failure).rejects.toMatchObject({ status: null, message: "Network error" });
    await withCsrfRetry(calls.send);
    expect(calls.tokens).toEqual(["second-try"]);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it("fails with the answer's status, or 'Not authenticated' when the answer holds none", async () => {
    serveTokens(
      json({ error: { code: "INTERNAL_ERROR" } }, 500),
      json({ csrfToken: null, token: null }),
      new Response("<html>", { status: 200 }),
    );
    const { withCsrfRetry } = await csrfClient();
    const { tokens, send } = sender();
    await expect(withCsrfRetry(send)).rejects.toMatchObject({ status: 500, message: "Request failed with status 500" });
    await expect(withCsrfRetry(send)).rejects.toMatchObject({ status: 401, message: "Not authenticated" });
    await expect(withCsrfRetry(send)).rejects.toMatchObject({ status: 401 });
    expect(tokens).toEqual([]);
  });
});

describe("withCsrfRetry", () => {
  it.each([
    ["the code CSRF_VALIDATION_FAILED", refusedByCode],
    ["the error text 'Invalid CSRF token'", { status: 403, json: { error: "Invalid CSRF token" } }],
  ])("fetches a fresh token and sends once more on a 403 with %s", async (_, refused) => {
    const fetch = serveTokens(json({ csrfToken: "stale" }), json({ csrfToken: "fresh" }));
    const { withCsrfRetry } = await csrfClient();
    const calls = sender(refused, { status: 201, json: { ok: true } });
    expect(await withCsrfRetry(calls.send)).toEqual({ status: 201, json: { ok: true } });
    expect(calls.tokens).toEqual(["stale", "fresh"]);

    // The fresh token is the one kept.
    const next = sender(accepted);
    await withCsrfRetry(next.send);
    expect(next.tokens).toEqual(["fresh"]);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it("returns a second refusal instead of retrying again", async () => {
    serveTokens(json({ csrfToken: "one" }), json({ csrfToken: "two" }));
    const { withCsrfRetry } = await csrfClient();
    const calls = sender(refusedByCode, refusedByCode);
    expect(await withCsrfRetry(calls.send)).toEqual(refusedByCode);
    expect(calls.tokens).toEqual(["one", "two"]);
  });

  it.each([
    ["another 403", { status: 403, json: { error: { code: "FORBIDDEN", message: "Not yours" } } }],
    ["a 403 without JSON", { status: 403, json: null }],
    ["the CSRF code on another status", { status: 400, json: { error: { code: "CSRF_VALIDATION_FAILED" } } }],
  ])("returns %s as it is", async (_, answer) => {
    serveTokens(json({ csrfToken: "t" }));
    const { withCsrfRetry } = await csrfClient();
    const calls = sender(answer);
    expect(await withCsrfRetry(calls.send)).toEqual(answer);
    expect(calls.tokens).toEqual(["t"]);
  });
});

describe("csrfFetch", () => {
  it("sends the token with the cookie, keeps the caller's request, and answers ok, status and JSON", async () => {
    const answers = [json({ csrfToken: "t0k3n" }), json({ data: 1 }, 202), new Response(null, { status: 204 })];
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) => answers.shift()!);
    vi.stubGlobal("fetch", fetch);
    const { csrfFetch } = await csrfClient();

    const body = JSON.stringify({ a: 1 });
    expect(await csrfFetch("/api/thing", { method: "PATCH", headers: { "Content-Type": "application/json" }, body })).toEqual({
      ok: true,
      status: 202,
      json: { data: 1 },
    });
    const [url, init = {}] = fetch.mock.calls[1]!;
    expect(url).toBe("/api/thing");
    expect(init).toMatchObject({ method: "PATCH", body, credentials: "same-origin" });
    const headers = new Headers(init.headers);
    expect(headers.get("X-CSRF-Token")).toBe("t0k3n");
    expect(headers.get("Content-Type")).toBe("application/json");

    expect(await csrfFetch("/api/thing", { method: "DELETE" })).toEqual({ ok: true, status: 204, json: null });
  });
});
