import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/**
 * The place search's session (components/locations/useLocationSearch.ts), which every place picker
 * (onboarding, settings, events, plans) shares through LocationSearch: its searches carry one
 * token, the pick ends it (the token its details are looked up with) and the next search starts
 * another. The hook runs here as a plain function: its refs are kept, its state and effects unused.
 */
vi.mock("react", () => ({
  useState: (initial: unknown) => [typeof initial === "function" ? initial() : initial, () => {}],
  useRef: (current: unknown) => ({ current }),
  useCallback: (fn: unknown) => fn,
  useEffect: () => {},
}));

const { SEARCH_DEBOUNCE_MS, useLocationSearch } = await import("@/components/locations/useLocationSearch");

const sent: string[] = [];

beforeEach(() => {
  vi.useFakeTimers();
  sent.length = 0;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      sent.push(url);
      return new Response(JSON.stringify({ success: true, data: { predictions: [] } }), {
        headers: { "Content-Type": "application/json" },
      });
    }),
  );
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const tokenOf = (url: string) => new URL(url, "http://localhost").searchParams.get("session_token");

async function search(session: ReturnType<typeof useLocationSearch>, text: string) {
  session.schedule(text);
  await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS);
}

describe("a place search's session", () => {
  it("names its searches with one token, ends with the pick, which gets that token, and the next search starts another", async () => {
    const session = useLocationSearch();
    await search(session, "lis");
    await search(session, "lisbo");
    const first = sent.map(tokenOf);
    expect(first).toHaveLength(2);
    expect(first[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(first[1]).toBe(first[0]);

    expect(session.endSession(), "the pick's details go with the searches' token").toBe(first[0]);
    expect(session.endSession(), "an ended session is handed out once").toBeUndefined();

    await search(session, "porto");
    const next = tokenOf(sent[2]!);
    expect(next).toMatch(/^[0-9a-f-]{36}$/);
    expect(next).not.toBe(first[0]);
    expect(session.endSession()).toBe(next);
  });
});
