import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/**
 * A conversation marked read (lib/messages/client/api.ts markRead) that the server's limit refused
 * (429, its Retry-After longer than the transport sits out): the reader saw the messages, so the
 * position is sent again once the wait is over, not only when another message comes or the reader
 * scrolls (a reader sitting still at the bottom of a quiet conversation would keep it unread).
 */

vi.mock("@/lib/live/client/use-live", () => ({ invalidate: vi.fn() }));

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
const limited = () =>
  json({ error: { code: "RATE_LIMITED", message: "Too many requests. Please try again later." } }, 429, { "Retry-After": "30" });

/** A fake fetch: the CSRF token, then `answers` in order for the read positions sent; answers what each sent. */
function fakeFetch(answers: Response[]) {
  const fetch = vi.fn(async (url: string, _init?: RequestInit) => {
    if (url === "/api/csrf-token") return json({ csrfToken: "t0k3n" });
    const next = answers.shift();
    if (!next) throw new Error(`unexpected request to ${url}`);
    return next;
  });
  vi.stubGlobal("fetch", fetch);
  return () =>
    fetch.mock.calls
      .filter(([url]) => url !== "/api/csrf-token")
      .map(([url, init]) => `${url} ${(JSON.parse(String(init?.body)) as { upTo: string }).upTo}`);
}

beforeEach(() => {
  vi.resetModules();
  vi.useFakeTimers();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("a read position the server refused for a while", () => {
  it("is sent again once the wait is over", async () => {
    const sent = fakeFetch([limited(), json({ data: { unreadCount: 0 } })]);
    const { markRead } = await import("@/lib/messages/client/api");
    await expect(markRead("c1", "m7")).rejects.toMatchObject({ status: 429 });
    await vi.advanceTimersByTimeAsync(29_000);
    expect(sent()).toEqual(["/api/conversations/c1/read m7"]);
    await vi.advanceTimersByTimeAsync(1_500);
    expect(sent()).toEqual(["/api/conversations/c1/read m7", "/api/conversations/c1/read m7"]);
  });

  it("is sent again once, as the newest position asked for meanwhile (each refused without a request)", async () => {
    const sent = fakeFetch([limited(), json({ data: { unreadCount: 0 } })]);
    const { markRead } = await import("@/lib/messages/client/api");
    await expect(markRead("c1", "m7")).rejects.toMatchObject({ status: 429 });
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(markRead("c1", "m8")).rejects.toMatchObject({ status: 429, message: "Rate limited. Please wait 20 seconds." });
    await expect(markRead("c1", "m8")).rejects.toMatchObject({ status: 429 });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent()).toEqual(["/api/conversations/c1/read m7", "/api/conversations/c1/read m8"]);
  });
});
