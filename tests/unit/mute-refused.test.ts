import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/**
 * 'Mute' refused (lib/messages/client/api.ts setMuted): the server's limit (429, its Retry-After
 * longer than the transport sits out) reaches the button as its message, and the thread is loaded
 * again, so the button shows what the server holds whatever became of the call.
 */

const { invalidate } = vi.hoisted(() => ({ invalidate: vi.fn() }));
vi.mock("@/lib/live/client/use-live", () => ({ invalidate }));

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });

function fakeFetch(answer: Response) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => (url === "/api/csrf-token" ? json({ csrfToken: "t0k3n" }) : answer)),
  );
}

beforeEach(() => {
  vi.resetModules();
  invalidate.mockClear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("'Mute' and back", () => {
  it("a 429 reaches the button with the server's words, and the thread is loaded again", async () => {
    fakeFetch(
      json({ error: { code: "RATE_LIMITED", message: "Too many requests. Please try again later." } }, 429, { "Retry-After": "600" }),
    );
    const { setMuted, threadKey } = await import("@/lib/messages/client/api");
    await expect(setMuted("c1", true)).rejects.toMatchObject({ status: 429, message: "Too many requests. Please try again later." });
    expect(invalidate).toHaveBeenCalledWith(threadKey("c1"));
  });

  it("pressed again while refused is refused without a request, with the wait left", async () => {
    fakeFetch(
      json({ error: { code: "RATE_LIMITED", message: "Too many requests. Please try again later." } }, 429, { "Retry-After": "600" }),
    );
    const { setMuted } = await import("@/lib/messages/client/api");
    await expect(setMuted("c1", true)).rejects.toMatchObject({ status: 429 });
    await expect(setMuted("c1", true)).rejects.toMatchObject({
      status: 429,
      message: expect.stringMatching(/^Rate limited\. Please wait \d+ seconds\.$/),
    });
  });

  it("done: the thread is loaded again", async () => {
    fakeFetch(json({ data: { muted: true } }));
    const { setMuted, threadKey } = await import("@/lib/messages/client/api");
    await setMuted("c1", true);
    expect(invalidate).toHaveBeenCalledWith(threadKey("c1"));
  });
});
