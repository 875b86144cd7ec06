import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { connectStream, eventApplier, OPEN_TIMEOUT_MS, STEADY_MS, type EventSourceLike } from "@/lib/live/client/stream";
import { STREAM_EVENTS, UNNUMBERED_EVENTS } from "@/lib/registry/live-client";
import { ACCOUNT_EVENT, HEARTBEAT_EVENT, HEARTBEAT_MS, reconnectDelay, SILENT_MS } from "@/lib/live/rules";

/**
 * The browser's live stream connection (lib/live/client/stream.ts): the spec's reconnect schedule
 * (section 9: 1, 2, 5, 10 s, then every 10 s), resuming from the last id, the pause of a hidden
 * tab. EventSource is a fake; the clock is fake.
 */

class FakeSource implements EventSourceLike {
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  listeners = new Map<string, (event: MessageEvent<string>) => void>();
  constructor(readonly url: string) {}
  addEventListener(name: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(name, listener);
  }
  close() {
    this.closed = true;
  }
  opened() {
    this.onopen?.(new Event("open"));
  }
  fail() {
    this.onerror?.(new Event("error"));
  }
  send(name: string, id: number, data: unknown) {
    this.listeners.get(name)?.(new MessageEvent(name, { data: JSON.stringify(data), lastEventId: String(id) }));
  }
}

let sources: FakeSource[];
const last = () => sources.at(-1)!;

function connect(from: { lastEventId?: string; initiallyUp?: boolean } = {}) {
  const events: [string, unknown][] = [];
  const ups: boolean[] = [];
  const connection = connectStream("/api/stream", {
    open: (url) => {
      const source = new FakeSource(url);
      sources.push(source);
      return source;
    },
    events: STREAM_EVENTS,
    onEvent: (name, data) => events.push([name, data]),
    onUp: (up) => ups.push(up),
    ...from,
  });
  return { connection, events, ups };
}

/** When each reopening happened, in ms after the failure before it, for `failures` failures in a row. */
function failRepeatedly(failures: number): number[] {
  const waits: number[] = [];
  for (let i = 0; i < failures; i++) {
    const before = sources.length;
    last().fail();
    let waited = 0;
    while (sources.length === before) {
      vi.advanceTimersByTime(100);
      waited += 100;
    }
    waits.push(waited);
  }
  return waits;
}

beforeEach(() => {
  // Each test's tab starts afresh: the feeds' module keeps what the tab saw (what events it missed).
  vi.resetModules();
  vi.useFakeTimers();
  sources = [];
});
afterEach(() => vi.useRealTimers());

describe("reconnectDelay", () => {
  it("waits 1, 2, 5 and 10 s, then 10 s every time after", () => {
    expect([0, 1, 2, 3, 4, 5, 50].map(reconnectDelay)).toEqual([1_000, 2_000, 5_000, 10_000, 10_000, 10_000, 10_000]);
  });
});

describe("connectStream", () => {
  it("reconnects after 1, 2, 5, 10 s and then every 10 s while the server stays away", () => {
    const { connection } = connect();
    expect(failRepeatedly(6)).toEqual([1_000, 2_000, 5_000, 10_000, 10_000, 10_000]);
    connection.stop();
  });

  it("starts the schedule over once a stream opens", () => {
    const { connection } = connect();
    failRepeatedly(3);
    last().opened();
    vi.advanceTimersByTime(STEADY_MS);
    expect(failRepeatedly(2)).toEqual([1_000, 2_000]);
    connection.stop();
  });

  it("counts a stream that ends as soon as it opened as a failed attempt: the wait grows and the keys poll", () => {
    const { connection, ups } = connect();
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      last().opened();
      vi.advanceTimersByTime(STEADY_MS - 100);
      waits.push(...failRepeatedly(1));
    }
    expect(waits).toEqual([1_000, 2_000, 5_000, 10_000]);
    expect(ups).toEqual([true, false, true, false, true, false, true, false]);
    connection.stop();
  });

  it("resumes from the last id it received, and hands each event on in order", () => {
    const { connection, events } = connect();
    expect(last().url).toBe("/api/stream");
    last().opened();
    last().send("unread", 7, { notifications: 1 });
    last().send("notification", 8, { unread_count: 2 });
    failRepeatedly(1);
    expect(last().url).toBe("/api/stream?lastEventId=8");
    expect(events).toEqual([
      ["unread", { notifications: 1 }],
      ["notification", { unread_count: 2 }],
    ]);
    connection.stop();
  });

  it("stays up across the server's end of a stream, and goes down when the reconnect fails", () => {
    const { connection, ups } = connect();
    last().opened();
    vi.advanceTimersByTime(STEADY_MS);
    expect(ups).toEqual([true]);
    failRepeatedly(1);
    expect(ups).toEqual([true]);
    last().opened();
    vi.advanceTimersByTime(STEADY_MS);
    failRepeatedly(1);
    last().fail();
    expect(ups).toEqual([true, false]);
    connection.stop();
  });

  it("opens again a stream silent for SILENT_MS (asleep, or its network gone); heartbeats and events keep it open", () => {
    const { connection } = connect();
    const first = last();
    first.opened();
    for (let i = 0; i < 4; i++) {
      vi.advanceTimersByTime(HEARTBEAT_MS);
      first.send(HEARTBEAT_EVENT, 0, null);
    }
    vi.advanceTimersByTime(SILENT_MS - 1_000);
    first.send("unread", 3, { notifications: 0 });
    vi.advanceTimersByTime(SILENT_MS - 1_000);
    expect(first.closed).toBe(false);
    vi.advanceTimersByTime(1_000);
    expect(first.closed).toBe(true);
    vi.advanceTimersByTime(1_000);
    expect(sources).toHaveLength(2);
    expect(last().url).toBe("/api/stream?lastEventId=3");
    connection.stop();
  });

  it("counts an attempt that has not opened within 10 s as failed", () => {
    const { connection } = connect();
    const first = last();
    vi.advanceTimersByTime(OPEN_TIMEOUT_MS);
    expect(first.closed).toBe(true);
    vi.advanceTimersByTime(1_000);
    expect(sources).toHaveLength(2);
    connection.stop();
  });

  it("closes while paused (every tab hidden the while) and resumes from its last id", () => {
    const { connection, ups } = connect();
    last().opened();
    last().send("unread", 3, { notifications: 0 });
    connection.pause();
    expect(last().closed).toBe(true);
    expect(ups).toEqual([true, false]);
    vi.advanceTimersByTime(600_000);
    expect(sources).toHaveLength(1);
    connection.resume();
    expect(sources).toHaveLength(2);
    expect(last().url).toBe("/api/stream?lastEventId=3");
    connection.stop();
  });

  it("takes a stream over from where the browser's tabs are, counting as up until its first reconnect fails", () => {
    const { connection, ups } = connect({ lastEventId: "41", initiallyUp: true });
    expect(last().url).toBe("/api/stream?lastEventId=41");
    last().fail();
    expect(ups).toEqual([]);
    vi.advanceTimersByTime(1_000);
    last().fail();
    expect(ups).toEqual([false]);
    connection.stop();
  });

  it("comes back after the wait `replaced` names, polling meanwhile, from its last id", () => {
    const { connection, ups, events } = connect();
    last().opened();
    last().send("unread", 5, { notifications: 0 });
    last().send("replaced", 5, { retryMs: 60_000 });
    expect(last().closed).toBe(true);
    expect(ups).toEqual([true, false]);
    expect(events.map(([name]) => name)).toEqual(["unread"]);
    vi.advanceTimersByTime(59_000);
    expect(sources).toHaveLength(1);
    vi.advanceTimersByTime(1_000);
    expect(sources).toHaveLength(2);
    expect(last().url).toBe("/api/stream?lastEventId=5");
    connection.stop();
  });
});

describe("applyEvent", () => {
  it("opens as the page's person, resumes with that, and loads the page again when the server says the session is another's", async () => {
    const reload = vi.fn();
    vi.stubGlobal("window", { location: { reload } });
    try {
      const events: [string, unknown, string][] = [];
      const connection = connectStream("/api/stream?as=u-ana", {
        open: (url) => {
          const source = new FakeSource(url);
          sources.push(source);
          return source;
        },
        events: STREAM_EVENTS,
        unnumbered: UNNUMBERED_EVENTS,
        onEvent: (name, data, id) => events.push([name, data, id]),
        onUp: () => {},
      });
      last().opened();
      last().send("unread", 7, { notifications: 0 });
      failRepeatedly(1);
      expect(last().url).toBe("/api/stream?as=u-ana&lastEventId=7");
      // 'account' has no id of its own (the browser hands it the last one): it applies whatever the position.
      last().send(ACCOUNT_EVENT, 7, {});
      expect(events.at(-1)).toEqual([ACCOUNT_EVENT, {}, ""]);
      connection.stop();
      const { applyEvent } = await import("@/lib/registry/live-client");
      applyEvent(ACCOUNT_EVENT, {});
      expect(reload).toHaveBeenCalledTimes(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("pushes the counts to the bell and loads the notification list again; `reset` reloads everything it feeds", async () => {
    vi.stubGlobal("document", Object.assign(new EventTarget(), { visibilityState: "visible" }));
    vi.stubGlobal("window", new EventTarget());
    try {
      const { applyEvent } = await import("@/lib/registry/live-client");
      const { liveState, subscribeLive } = await import("@/lib/live/client/use-live");
      const { latestKey } = await import("@/lib/notifications/client");
      const loadPage = vi.fn(async () => ["page"]);
      const loadLatest = vi.fn(async () => ["latest"]);
      const loadCount = vi.fn(async () => 0);
      const stops = [
        subscribeLive("notifications:unread", loadCount, {}, () => {}),
        subscribeLive("notifications:page:20:0", loadPage, {}, () => {}),
        subscribeLive(latestKey(5), loadLatest, {}, () => {}),
      ];
      await vi.advanceTimersByTimeAsync(0);
      applyEvent("notification", { unread_count: 4, newest: null });
      await vi.advanceTimersByTimeAsync(0);
      expect(liveState("notifications:unread")).toEqual({ status: "ready", value: 4 });
      expect(loadPage).toHaveBeenCalledTimes(2);
      // The dashboard's newest few follow too.
      expect(loadLatest).toHaveBeenCalledTimes(2);
      applyEvent("unread", { notifications: 2, messages: 0 });
      expect(liveState("notifications:unread")).toEqual({ status: "ready", value: 2 });
      applyEvent("reset", {});
      await vi.advanceTimersByTimeAsync(0);
      expect(loadCount).toHaveBeenCalledTimes(2);
      expect(loadPage).toHaveBeenCalledTimes(3);
      stops.forEach((stop) => stop());
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("puts a message, a read position and a deletion into the open thread as the events carry them, with no load", async () => {
    vi.stubGlobal("document", Object.assign(new EventTarget(), { visibilityState: "visible" }));
    vi.stubGlobal("window", new EventTarget());
    try {
      const { applyEvent } = await import("@/lib/registry/live-client");
      const { liveState, subscribeLive } = await import("@/lib/live/client/use-live");
      const author = { userId: "u-ana", firstName: "Ana", coupleId: "c-ana", coupleName: "Ana & Rui" };
      const message = (id: string, createdAt: string) => ({
        id,
        conversationId: "k1",
        body: id,
        photoUrl: null,
        author,
        createdAt,
        deleted: false,
      });
      const first = message("m1", "2026-11-27T10:00:00.000Z");
      const initial = {
        conversation: { readPositions: [{ userId: "u-leo", firstName: "Leo", lastReadMessageId: null }] },
        messages: [first],
        hasMore: false,
      };
      const loadThread = vi.fn(async () => initial);
      const loadInbox = vi.fn(async () => []);
      const stops = [
        subscribeLive("messages:thread:k1", loadThread, { initial }, () => {}),
        subscribeLive("messages:inbox", loadInbox, {}, () => {}),
      ];
      await vi.advanceTimersByTimeAsync(0);
      const second = message("m2", "2026-11-27T10:01:00.000Z");
      applyEvent("message", second);
      applyEvent("message", second);
      applyEvent("read", { conversationId: "k1", userId: "u-leo", firstName: "Leo", lastReadMessageId: "m2" });
      await vi.advanceTimersByTimeAsync(0);
      expect(liveState("messages:thread:k1")).toEqual({
        status: "ready",
        value: {
          ...initial,
          conversation: { readPositions: [{ userId: "u-leo", firstName: "Leo", lastReadMessageId: "m2" }] },
          messages: [first, second],
        },
      });
      expect(loadThread).not.toHaveBeenCalled();
      // The inbox's rows carry unread counts the events do not: they load again.
      expect(loadInbox).toHaveBeenCalledTimes(4);
      const erased = { ...first, body: null, deleted: true };
      applyEvent("message-deleted", erased);
      await vi.advanceTimersByTimeAsync(0);
      expect((liveState("messages:thread:k1") as { value: typeof initial }).value.messages).toEqual([erased, second]);
      expect(loadThread).not.toHaveBeenCalled();
      stops.forEach((stop) => stop());
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("a conversation that ended loads its thread, its plans' cards and 'Upcoming' again; a request's change leaves the plans", async () => {
    vi.stubGlobal("document", Object.assign(new EventTarget(), { visibilityState: "visible" }));
    vi.stubGlobal("window", new EventTarget());
    try {
      const { applyEvent } = await import("@/lib/registry/live-client");
      const { subscribeLive } = await import("@/lib/live/client/use-live");
      const loadThread = vi.fn(async () => ({}));
      const loadCards = vi.fn(async () => []);
      const loadUpcoming = vi.fn(async () => []);
      const stops = [
        subscribeLive("messages:thread:k3", loadThread, { initial: {} }, () => {}),
        subscribeLive("plans:conversation:k3", loadCards, { initial: [] }, () => {}),
        subscribeLive("plans:upcoming", loadUpcoming, { initial: [] }, () => {}),
      ];
      applyEvent("connection", { id: "r1", status: "accepted", conversationId: "k3" });
      await vi.advanceTimersByTimeAsync(0);
      expect([loadThread, loadCards, loadUpcoming].map((load) => load.mock.calls.length)).toEqual([1, 0, 0]);
      applyEvent("connection", { conversationId: "k3", ended: true });
      await vi.advanceTimersByTimeAsync(0);
      expect([loadThread, loadCards, loadUpcoming].map((load) => load.mock.calls.length)).toEqual([2, 1, 1]);
      // Two features apply it, through one listener: the stream names each event once.
      expect(STREAM_EVENTS.filter((name) => name === "connection")).toHaveLength(1);
      stops.forEach((stop) => stop());
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("loads the open thread again for a reader it does not know yet (a partner who joined since it loaded): 'Seen by' names them", async () => {
    vi.stubGlobal("document", Object.assign(new EventTarget(), { visibilityState: "visible" }));
    vi.stubGlobal("window", new EventTarget());
    try {
      const { applyEvent } = await import("@/lib/registry/live-client");
      const { liveState, subscribeLive } = await import("@/lib/live/client/use-live");
      const leo = { userId: "u-leo", firstName: "Leo", lastReadMessageId: null };
      const initial = { conversation: { readPositions: [leo] }, messages: [], hasMore: false };
      const joined = { userId: "u-mia", firstName: "Mia", lastReadMessageId: "m1" };
      const loaded = { ...initial, conversation: { readPositions: [leo, joined] } };
      const loadThread = vi.fn(async () => loaded);
      const stop = subscribeLive("messages:thread:k2", loadThread, { initial }, () => {});
      applyEvent("read", { conversationId: "k2", ...joined });
      await vi.advanceTimersByTimeAsync(0);
      expect(loadThread).toHaveBeenCalledTimes(1);
      expect(liveState("messages:thread:k2")).toEqual({ status: "ready", value: loaded });
      // A reader it knows moves with no load.
      applyEvent("read", { conversationId: "k2", ...leo, lastReadMessageId: "m1" });
      await vi.advanceTimersByTimeAsync(0);
      expect(loadThread).toHaveBeenCalledTimes(1);
      stop();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe("eventApplier", () => {
  it("runs every feature's handler for a kind though one throws, and reports that error", () => {
    const reported = vi.fn();
    vi.stubGlobal("reportError", reported);
    try {
      const failure = new Error("messaging's handler failed");
      const plans = vi.fn();
      const apply = eventApplier([
        {
          feeds: [],
          events: {
            connection: () => {
              throw failure;
            },
          },
        },
        { feeds: [], events: { connection: plans } },
      ]);
      apply("connection", { conversationId: "k1", ended: true });
      expect(plans).toHaveBeenCalledWith({ conversationId: "k1", ended: true });
      expect(reported).toHaveBeenCalledWith(failure);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
