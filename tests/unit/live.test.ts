import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/**
 * The live feeds under useLive (lib/live/client/use-live.ts): polling only while the page is visible and
 * at once when shown again (spec section 9), shared keys, invalidation, pushed values and a stream
 * that switches polling off. The page is a fake document and window; the clock is fake.
 */

const page = Object.assign(new EventTarget(), { visibilityState: "visible" as "visible" | "hidden" });
const browserWindow = new EventTarget();

function show(visible: boolean) {
  page.visibilityState = visible ? "visible" : "hidden";
  page.dispatchEvent(new Event("visibilitychange"));
}

/** A load that answers `values` in order (the last one from then on), counting its calls and remembering their signals. */
function loader<T>(...values: (T | Error)[]) {
  const signals: AbortSignal[] = [];
  const load = vi.fn(async (signal: AbortSignal) => {
    signals.push(signal);
    const value = values.length > 1 ? values.shift()! : values[0]!;
    if (value instanceof Error) throw value;
    return value;
  });
  return Object.assign(load, { signals });
}

/** A load whose answers the test gives, one call at a time. */
function heldLoader<T>() {
  const pending: { resolve(value: T): void; signal: AbortSignal }[] = [];
  const load = vi.fn((signal: AbortSignal) => new Promise<T>((resolve) => pending.push({ resolve, signal })));
  return Object.assign(load, { pending });
}

const live = () => import("@/lib/live/client/use-live");
const unsubscribes: (() => void)[] = [];

async function watch<T>(
  key: string,
  load: (signal: AbortSignal) => Promise<T>,
  options: Parameters<Awaited<ReturnType<typeof live>>["subscribeLive"]>[2] = {},
) {
  const feeds = await live();
  const listener = vi.fn();
  const unsubscribe = feeds.subscribeLive(key, load, options, listener);
  unsubscribes.push(unsubscribe);
  await vi.advanceTimersByTimeAsync(0);
  return { listener, unsubscribe, state: () => feeds.liveState<T>(key), feeds };
}

beforeEach(() => {
  vi.resetModules();
  vi.useFakeTimers();
  page.visibilityState = "visible";
  vi.stubGlobal("document", page);
  vi.stubGlobal("window", browserWindow);
});

afterEach(() => {
  for (const unsubscribe of unsubscribes.splice(0)) unsubscribe();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("a live key", () => {
  it("loads when first shown: loading, then the value, telling its subscriber", async () => {
    const load = heldLoader<number>();
    const feeds = await live();
    const listener = vi.fn();
    unsubscribes.push(feeds.subscribeLive("count", load, {}, listener));
    expect(feeds.liveState("count")).toEqual({ status: "loading" });
    load.pending[0]!.resolve(4);
    await vi.advanceTimersByTimeAsync(0);
    expect(feeds.liveState("count")).toEqual({ status: "ready", value: 4 });
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it("is one feed for every subscriber of the key", async () => {
    const load = loader(7);
    const first = await watch("notifications:unread", load, { pollMs: 10_000 });
    const second = await watch("notifications:unread", loader(99), { pollMs: 1000 });
    expect(second.state()).toEqual({ status: "ready", value: 7 });
    await vi.advanceTimersByTimeAsync(10_000);
    // The first subscriber's options hold; the latest load function is the one called.
    expect(load).toHaveBeenCalledTimes(1);
    expect(first.listener).toHaveBeenCalledTimes(2);
    expect(second.listener).toHaveBeenCalledTimes(1);
  });

  it("shows an error only when the first load failed; later failures keep the value", async () => {
    const failing = await watch("a", loader<number>(new Error("down")));
    expect(failing.state()).toMatchObject({ status: "error", error: new Error("down") });

    const flaky = await watch("b", loader<number>(1, new Error("down"), 3), { pollMs: 1000 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(flaky.state()).toEqual({ status: "ready", value: 1 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(flaky.state()).toEqual({ status: "ready", value: 3 });
  });

  it("starts from `initial` without loading, then polls", async () => {
    const load = loader({ replies: 2 });
    const thread = await watch("forum:thread:p1", load, { initial: { replies: 1 }, pollMs: 10_000 });
    expect(thread.state()).toEqual({ status: "ready", value: { replies: 1 } });
    expect(load).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(thread.state()).toEqual({ status: "ready", value: { replies: 2 } });
  });

  it("keeps the value shown when a load answers the same data: its subscribers are not told, nothing renders again", async () => {
    const load = loader({ items: [{ id: "a", at: "2026-12-01T10:00:00.000Z", read: false }], total: 1 });
    const initial = { items: [{ id: "a", at: "2026-12-01T10:00:00.000Z", read: false }], total: 1 };
    const inbox = await watch("inbox", load, { initial, pollMs: 1000 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(load).toHaveBeenCalledTimes(1);
    expect(inbox.state()).toEqual({ status: "ready", value: initial });
    expect((inbox.state() as { value: unknown }).value).toBe(initial);
    expect(inbox.listener).not.toHaveBeenCalled();

    const changed = loader({ items: [{ id: "a", at: "2026-12-01T10:00:00.000Z", read: true }], total: 1 });
    const other = await watch("inbox:2", changed, { initial, pollMs: 1000 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(other.state()).toEqual({
      status: "ready",
      value: { items: [{ id: "a", at: "2026-12-01T10:00:00.000Z", read: true }], total: 1 },
    });
    expect(other.listener).toHaveBeenCalledTimes(1);
  });

  it("shows a `placeholder` at once and still loads: the answer replaces it, a failure keeps it", async () => {
    const load = heldLoader<string[]>();
    const latest = await watch("notifications:page:5:0", load, { placeholder: ["shown last time"] });
    expect(latest.state()).toEqual({ status: "ready", value: ["shown last time"] });
    expect(load).toHaveBeenCalledTimes(1);
    load.pending[0]!.resolve(["new", "shown last time"]);
    await vi.advanceTimersByTimeAsync(0);
    expect(latest.state()).toEqual({ status: "ready", value: ["new", "shown last time"] });

    const failing = await watch("notifications:page:5:5", loader<string[]>(new Error("down")), { placeholder: ["kept"] });
    expect(failing.state()).toEqual({ status: "ready", value: ["kept"] });
  });

  it("ends with its last subscriber: the load in flight is aborted, polling stops, and it starts afresh when shown again", async () => {
    const load = heldLoader<number>();
    const first = await watch("k", load, { pollMs: 1000 });
    const second = await watch("k", load, { pollMs: 1000 });
    first.unsubscribe();
    expect(load.pending[0]!.signal.aborted).toBe(false);
    second.unsubscribe();
    expect(load.pending[0]!.signal.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(5000);
    expect(load).toHaveBeenCalledTimes(1);
    expect(second.state()).toBeUndefined();

    await watch("k", load, { pollMs: 1000 });
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe("polling (section 9: every 10 s while the page is visible, never while hidden)", () => {
  it("loads every pollMs while visible", async () => {
    const load = loader(1);
    await watch("count", load, { pollMs: 10_000 });
    await vi.advanceTimersByTimeAsync(9_999);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(load).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(load).toHaveBeenCalledTimes(4);
  });

  it("sends nothing while hidden, and loads at once when shown again", async () => {
    const load = loader(1);
    await watch("thread", load, { initial: 0, pollMs: 10_000 });
    show(false);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(load).not.toHaveBeenCalled();
    show(true);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("does not load on mount while the page is hidden, but when it is shown", async () => {
    show(false);
    const load = loader(5);
    const count = await watch("count", load, { pollMs: 10_000 });
    expect(load).not.toHaveBeenCalled();
    expect(count.state()).toEqual({ status: "loading" });
    show(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(count.state()).toEqual({ status: "ready", value: 5 });
  });

  it("loads when shown again (visibility or window focus) only once the value is older than staleMs", async () => {
    const load = loader(1);
    await watch("count", load, { staleMs: 8_000 });
    show(false);
    show(true);
    browserWindow.dispatchEvent(new Event("focus"));
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(8_000);
    browserWindow.dispatchEvent(new Event("focus"));
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("with whileVisible false, polls while hidden too", async () => {
    const load = loader(1);
    await watch("count", load, { pollMs: 1000, whileVisible: false });
    show(false);
    await vi.advanceTimersByTimeAsync(3000);
    expect(load).toHaveBeenCalledTimes(4);
  });

  it("drops the answer of a load that a newer one superseded", async () => {
    const load = heldLoader<string>();
    const count = await watch("slow", load, { pollMs: 1000 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(load.pending[0]!.signal.aborted).toBe(true);
    load.pending[1]!.resolve("new");
    load.pending[0]!.resolve("old");
    await vi.advanceTimersByTimeAsync(0);
    expect(count.state()).toEqual({ status: "ready", value: "new" });
  });
});

describe("other feeds", () => {
  it("invalidate loads every shown key under the prefix again, and no other", async () => {
    const unread = loader(1);
    const page1 = loader(["a"]);
    const other = loader("x");
    const { feeds } = await watch("notifications:unread", unread);
    await watch("notifications:page:20:0", page1);
    await watch("notificationsettings", other);
    feeds.invalidate("notifications");
    expect(unread).toHaveBeenCalledTimes(2);
    expect(page1).toHaveBeenCalledTimes(2);
    expect(other).toHaveBeenCalledTimes(1);
  });

  it("onLiveRead tells of every answered load under its prefix, the same data answered again too, until unsubscribed", async () => {
    const requests = loader({ data: ["r1"], total: 21 });
    const other = loader(3);
    const { feeds } = await watch("messages:requests", requests, { initial: { data: ["r1"], total: 21 } });
    await watch("notifications:unread", other);
    const read = vi.fn();
    const stop = feeds.onLiveRead("messages", read);
    // An event's invalidation, answering what is shown: the value is kept, the read is told.
    feeds.invalidate("messages:requests");
    await vi.advanceTimersByTimeAsync(0);
    expect(read).toHaveBeenCalledTimes(1);
    feeds.invalidate("notifications");
    await vi.advanceTimersByTimeAsync(0);
    expect(read).toHaveBeenCalledTimes(1);
    // A load superseded before it answered tells nothing; the one after it does.
    const held = heldLoader<number>();
    await watch("messages:unread", held);
    feeds.invalidate("messages:unread");
    held.pending[0]!.resolve(1);
    held.pending[1]!.resolve(2);
    await vi.advanceTimersByTimeAsync(0);
    expect(read).toHaveBeenCalledTimes(2);
    stop();
    feeds.invalidate("messages");
    await vi.advanceTimersByTimeAsync(0);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it("invalidate while the page is hidden loads when it is shown again, even if not stale", async () => {
    const load = loader(1);
    const { feeds } = await watch("notifications:unread", load, { staleMs: 60_000 });
    show(false);
    feeds.invalidate("notifications");
    expect(load).toHaveBeenCalledTimes(1);
    show(true);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("push sets the value, or changes it, and drops a load in flight", async () => {
    const load = heldLoader<{ replies: string[] }>();
    const thread = await watch("forum:thread:p1", load, { initial: { replies: ["r1"] }, pollMs: 10_000 });
    await vi.advanceTimersByTimeAsync(10_000);
    thread.feeds.push<{ replies: string[] }>("forum:thread:p1", (current) => ({ replies: [...current.replies, "mine"] }));
    expect(thread.state()).toEqual({ status: "ready", value: { replies: ["r1", "mine"] } });
    expect(load.pending[0]!.signal.aborted).toBe(true);
    load.pending[0]!.resolve({ replies: ["r1"] });
    await vi.advanceTimersByTimeAsync(0);
    expect(thread.state()).toEqual({ status: "ready", value: { replies: ["r1", "mine"] } });

    thread.feeds.push("forum:thread:p1", { replies: ["from a stream"] });
    expect(thread.state()).toEqual({ status: "ready", value: { replies: ["from a stream"] } });
    expect(thread.listener).toHaveBeenCalledTimes(2);
  });

  it("a change pushed while a load is in flight asks that load again, so what it was asked for still arrives", async () => {
    const load = heldLoader<{ replies: string[]; seen: boolean }>();
    const thread = await watch("forum:thread:p1", load, { initial: { replies: ["r1"], seen: false } });
    thread.feeds.invalidate("forum:thread:p1");
    thread.feeds.push<{ replies: string[]; seen: boolean }>("forum:thread:p1", (current) => ({
      ...current,
      replies: [...current.replies, "r2"],
    }));
    expect(thread.state()).toEqual({ status: "ready", value: { replies: ["r1", "r2"], seen: false } });
    expect(load.pending[0]!.signal.aborted).toBe(true);
    expect(load).toHaveBeenCalledTimes(2);
    load.pending[1]!.resolve({ replies: ["r1", "r2"], seen: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(thread.state()).toEqual({ status: "ready", value: { replies: ["r1", "r2"], seen: true } });

    // A whole value needs nothing asked again; nor does a change with no load in flight.
    thread.feeds.invalidate("forum:thread:p1");
    thread.feeds.push("forum:thread:p1", { replies: ["from a stream"], seen: true });
    thread.feeds.push<{ replies: string[]; seen: boolean }>("forum:thread:p1", (current) => ({ ...current, seen: false }));
    expect(load).toHaveBeenCalledTimes(3);
  });

  it("a change pushed before the first value arrives through the first load, asked again", async () => {
    const load = heldLoader<string[]>();
    const list = await watch("messages:thread:c1", load);
    list.feeds.push<string[]>("messages:thread:c1", (current) => [...current, "m2"]);
    expect(list.state()).toEqual({ status: "loading" });
    expect(load.pending[0]!.signal.aborted).toBe(true);
    load.pending[1]!.resolve(["m1", "m2"]);
    await vi.advanceTimersByTimeAsync(0);
    expect(list.state()).toEqual({ status: "ready", value: ["m1", "m2"] });
  });

  it("a stream switches polling off while it is up, and on its end each key loads once and polls again", async () => {
    const load = loader(1);
    const { feeds } = await watch("notifications:unread", load, { pollMs: 10_000 });
    // Coming up, each key loads once: what it showed may be older than the stream's first event.
    feeds.setStreaming("notifications", true);
    feeds.setStreaming("notifications", true);
    await vi.advanceTimersByTimeAsync(60_000);
    show(false);
    show(true);
    expect(load).toHaveBeenCalledTimes(2);
    feeds.push("notifications:unread", 2);

    // A key shown while the stream is up is not polled either.
    const other = loader("x");
    await watch("notifications:page:5:0", other, { pollMs: 10_000 });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(other).toHaveBeenCalledTimes(1);

    feeds.setStreaming("notifications", false);
    expect(load).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(load).toHaveBeenCalledTimes(4);
  });

  it("a key whose first load failed polls on while the stream is up, until it has a value (a stream carries changes, not it)", async () => {
    const feeds = await live();
    feeds.setStreaming("notifications", true);
    const load = loader<number>(new Error("offline"), 3);
    const { state } = await watch("notifications:unread", load, { pollMs: 10_000 });
    expect(state()).toMatchObject({ status: "error" });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(state()).toEqual({ status: "ready", value: 3 });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("a page's value rendered before the stream came up is loaded again then (a message sent while the page loaded)", async () => {
    const load = loader({ messages: ["hello", "are you there?"] });
    const { feeds, state } = await watch("messages:thread:c1", load, { initial: { messages: ["hello"] } });
    expect(load).not.toHaveBeenCalled();
    feeds.setStreaming("messages", true);
    await vi.advanceTimersByTimeAsync(0);
    expect(state()).toEqual({ status: "ready", value: { messages: ["hello", "are you there?"] } });
  });

  it("a key an event changed while nothing showed it loads once when shown within MISSED_MS, even with the page's value", async () => {
    const feeds = await live();
    feeds.setStreaming("messages", true);
    // The message arrives while the conversation's page is on its way (a navigation): no feed yet.
    feeds.push("messages:thread:c1", (thread: { messages: string[] }) => ({ messages: [...thread.messages, "are you there?"] }));
    feeds.invalidate("messages:inbox");
    const thread = loader({ messages: ["hello", "are you there?"] });
    const { state } = await watch("messages:thread:c1", thread, { initial: { messages: ["hello"] } });
    expect(thread).toHaveBeenCalledTimes(1);
    expect(state()).toEqual({ status: "ready", value: { messages: ["hello", "are you there?"] } });
    const inbox = loader(["c1"]);
    await watch("messages:inbox", inbox, { initial: [] });
    expect(inbox).toHaveBeenCalledTimes(1);

    // Past MISSED_MS the page's value is newer than the event: nothing more loads.
    feeds.push("messages:thread:c2", (thread: { messages: string[] }) => thread);
    await vi.advanceTimersByTimeAsync(feeds.MISSED_MS + 1);
    const later = loader({ messages: [] });
    await watch("messages:thread:c2", later, { initial: { messages: [] } });
    expect(later).not.toHaveBeenCalled();
  });
});
