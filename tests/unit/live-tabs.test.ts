import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from "vitest";
import { LEADER_ANSWER_MS, nextPosition, shareStream, type ChannelLike, type LocksLike, type SharedStream } from "@/lib/live/client/tabs";
import { HIDDEN_PAUSE_MS } from "@/lib/live/rules";

/**
 * One live connection per browser (lib/live/client/tabs.ts): one tab holds the stream and hands
 * its events to the others, the next takes over from the last id, each tab applies an event once,
 * and the stream pauses only when every tab has been hidden the while. Web Locks and
 * BroadcastChannel are fakes with the browser's semantics (FIFO locks, freed with their tab, taken
 * by `steal`).
 */

type Entry = { name: string; mode: "shared" | "exclusive"; tab: number; run: () => void };

/** The browser's lock manager for every tab: FIFO per name, shared locks held together, a steal granted at once. */
class LockTable {
  held: Entry[] = [];
  queue: Entry[] = [];
  private releasers = new Map<Entry, () => void>();
  private breakers = new Map<Entry, () => void>();

  forTab(tab: number): LocksLike {
    return {
      request: (name, options, granted) =>
        new Promise((resolve, reject) => {
          const entry: Entry = {
            name,
            mode: options.mode ?? "exclusive",
            tab,
            run: () =>
              void Promise.resolve(granted()).then((value) => {
                this.release(entry);
                resolve(value);
              }),
          };
          this.releasers.set(entry, () => resolve(undefined));
          this.breakers.set(entry, () => reject(new DOMException("stolen", "AbortError")));
          if (options.steal) {
            // The holders lose the lock (their requests reject); this one is granted ahead of the queue.
            for (const holder of this.held.filter((held) => held.name === name)) {
              this.held = this.held.filter((held) => held !== holder);
              this.breakers.get(holder)?.();
            }
            this.held.push(entry);
            entry.run();
            return;
          }
          options.signal?.addEventListener("abort", () => {
            if (!this.queue.includes(entry)) return;
            this.queue = this.queue.filter((queued) => queued !== entry);
            reject(new DOMException("aborted", "AbortError"));
          });
          this.queue.push(entry);
          this.process();
        }),
      query: async () => ({ held: this.held.map(({ name }) => ({ name })) }),
    };
  }

  private process(): void {
    const blocked = new Set<string>();
    for (const entry of [...this.queue]) {
      if (blocked.has(entry.name)) continue;
      const holders = this.held.filter((held) => held.name === entry.name);
      if (holders.length && (entry.mode === "exclusive" || holders.some((held) => held.mode === "exclusive"))) {
        blocked.add(entry.name);
        continue;
      }
      this.queue = this.queue.filter((queued) => queued !== entry);
      this.held.push(entry);
      entry.run();
    }
  }

  private release(entry: Entry): void {
    if (!this.held.includes(entry)) return;
    this.held = this.held.filter((held) => held !== entry);
    this.process();
  }

  /** The tab is gone (closed, crashed, navigated away): the browser frees its locks. */
  crash(tab: number): void {
    this.queue = this.queue.filter((entry) => entry.tab !== tab);
    for (const entry of this.held.filter((held) => held.tab === tab)) {
      this.releasers.get(entry)?.();
      this.release(entry);
    }
  }
}

class Hub {
  channels = new Set<FakeChannel>();
}
class FakeChannel implements ChannelLike {
  onmessage: ((event: MessageEvent) => void) | null = null;
  /** A tab the browser froze: it answers nothing, and what it is sent waits until it thaws. */
  frozen = false;
  private waiting: unknown[] = [];
  constructor(private hub: Hub) {
    hub.channels.add(this);
  }
  postMessage(message: unknown): void {
    const copy = structuredClone(message);
    if (this.frozen) return;
    for (const other of this.hub.channels)
      if (other === this) continue;
      else if (other.frozen) other.waiting.push(copy);
      else queueMicrotask(() => other.onmessage?.({ data: copy } as MessageEvent));
  }
  thaw(): void {
    this.frozen = false;
    for (const data of this.waiting.splice(0)) queueMicrotask(() => this.onmessage?.({ data } as MessageEvent));
  }
  close(): void {
    this.hub.channels.delete(this);
  }
}

type FakeStream = {
  from: { lastEventId?: string; up: boolean };
  emit(name: string, data: unknown, id: number): void;
  up(value: boolean): void;
  pause: Mock<() => void>;
  resume: Mock<() => void>;
  stop: Mock<() => void>;
};

type Tab = {
  shared: SharedStream;
  applied: [string, unknown][];
  ups: boolean[];
  streams: FakeStream[];
  visible: boolean;
  channel?: FakeChannel;
};

let locks: LockTable;
let hub: Hub;
/** A channel per name, as BroadcastChannel is: each person's tabs have their own. */
let hubs: Map<string, Hub>;
const hubOf = (scope: string) => hubs.get(scope) ?? hubs.set(scope, new Hub()).get(scope)!;
let tabs: Tab[];

function openTab({ visible = true, supported = true, scope = undefined as string | undefined } = {}): Tab {
  const index = tabs.length;
  const channel = supported ? new FakeChannel(scope ? hubOf(scope) : hub) : undefined;
  const tab = { applied: [], ups: [], streams: [], visible, channel } as unknown as Tab;
  tab.shared = shareStream({
    locks: supported ? locks.forTab(index) : undefined,
    channel,
    scope,
    connect(from, onEvent, onUp) {
      const stream: FakeStream = {
        from,
        emit: (name, data, id) => onEvent(name, data, String(id)),
        up: onUp,
        pause: vi.fn<() => void>(),
        resume: vi.fn<() => void>(),
        // As the real stream's: a stopped stream says it is down.
        stop: vi.fn<() => void>(() => onUp(false)),
      };
      tab.streams.push(stream);
      return stream;
    },
    apply: (name, data) => tab.applied.push([name, data]),
    onUp: (up) => tab.ups.push(up),
    visible: () => tab.visible,
  });
  tabs.push(tab);
  return tab;
}

/** The tab goes without a word: its locks are freed and its channel closed, as the browser does. */
function crash(tab: Tab): void {
  // Gone, it shows nothing (the fake's timers still fire where a browser's would not).
  tab.visible = false;
  tab.channel?.close();
  locks.crash(tabs.indexOf(tab));
}

const settle = () => vi.advanceTimersByTimeAsync(0);
const leaders = () => tabs.filter((tab) => tab.streams.length > 0);

function setVisible(tab: Tab, visible: boolean): void {
  tab.visible = visible;
  tab.shared.visibilityChanged();
}

beforeEach(() => {
  vi.useFakeTimers();
  locks = new LockTable();
  hub = new Hub();
  hubs = new Map();
  tabs = [];
});
afterEach(() => {
  tabs.forEach((tab) => tab.shared.stop());
  vi.useRealTimers();
});

describe("nextPosition", () => {
  it("applies a newer id and drops one the tab has passed", () => {
    expect(nextPosition(undefined, "message", "4")).toEqual({ apply: true, last: 4 });
    expect(nextPosition(4, "message", "5")).toEqual({ apply: true, last: 5 });
    expect(nextPosition(5, "message", "5")).toEqual({ apply: false, last: 5 });
    expect(nextPosition(5, "message", "3")).toEqual({ apply: false, last: 5 });
  });

  it("applies the counts a new stream opens with at the newest id, but never older counts", () => {
    expect(nextPosition(9, "unread", "9")).toEqual({ apply: true, last: 9 });
    expect(nextPosition(9, "unread", "8")).toEqual({ apply: false, last: 9 });
  });

  it("always applies `reset` and moves to where the server puts it", () => {
    expect(nextPosition(90, "reset", "12")).toEqual({ apply: true, last: 12 });
  });
});

describe("shareStream", () => {
  it("opens one stream for the browser, in the first tab, and hands each of its events to every tab in order", async () => {
    const [first, second, third] = [openTab(), openTab(), openTab()];
    await settle();
    expect(leaders()).toEqual([first]);
    first.streams[0]!.emit("unread", { messages: 1 }, 7);
    first.streams[0]!.emit("message", { body: "Hi" }, 8);
    await settle();
    for (const tab of [first, second, third])
      expect(tab.applied).toEqual([
        ["unread", { messages: 1 }],
        ["message", { body: "Hi" }],
      ]);
  });

  it("tells every tab when the stream is up or down, and a tab opened later asks", async () => {
    const [first, second] = [openTab(), openTab()];
    await settle();
    first.streams[0]!.up(true);
    await settle();
    expect(second.ups).toEqual([true]);
    const third = openTab();
    await settle();
    expect(third.ups).toEqual([true]);
    first.streams[0]!.up(false);
    await settle();
    expect([first.ups, second.ups, third.ups]).toEqual([
      [true, false],
      [true, false],
      [true, false],
    ]);
  });

  it.each([
    ["crashes", crash],
    ["closes", (tab: Tab) => tab.shared.stop()],
  ])(
    "when the tab holding the stream %s, the next takes over from the last event id, each event applied once in every tab",
    async (_, leave) => {
      const [first, second, third] = [openTab(), openTab(), openTab()];
      await settle();
      first.streams[0]!.up(true);
      first.streams[0]!.emit("message", { body: "one" }, 1);
      first.streams[0]!.emit("message", { body: "two" }, 2);
      await settle();
      leave(first);
      await settle();
      expect(leaders()).toEqual([first, second]);
      const taken = second.streams[0]!;
      expect(taken.from).toEqual({ lastEventId: "2", up: true });
      // The server sends what follows the id; an event sent again (a race at the handover) applies once.
      taken.emit("message", { body: "two" }, 2);
      taken.emit("message", { body: "three" }, 3);
      await settle();
      for (const tab of [second, third])
        expect(tab.applied.map(([, data]) => (data as { body: string }).body)).toEqual(["one", "two", "three"]);
      // The tabs that stay never saw the stream go down.
      expect(third.ups).toEqual([true]);
    },
  );

  it("a tab opened after the last event takes over from the leader's id, which it was told when it joined", async () => {
    const first = openTab();
    await settle();
    first.streams[0]!.up(true);
    first.streams[0]!.emit("unread", { messages: 0 }, 7);
    await settle();
    const second = openTab();
    await settle();
    first.shared.stop();
    await settle();
    expect(second.streams[0]!.from).toEqual({ lastEventId: "7", up: true });
    expect(second.ups).toEqual([true]);
  });

  it("a tab that knows no position takes over with a fresh stream, and its keys load again once it is up", async () => {
    const first = openTab();
    await settle();
    first.streams[0]!.up(true);
    await settle();
    // The leader's answer carries no id: it applied none yet.
    const second = openTab();
    await settle();
    expect(second.ups).toEqual([true]);
    crash(first);
    await settle();
    const taken = second.streams[0]!;
    expect(taken.from).toEqual({ lastEventId: undefined, up: false });
    taken.up(true);
    expect(second.ups).toEqual([true, false, true]);
  });

  it("never shares one person's stream with a tab of another person signed in since in the same browser", async () => {
    const [ana, anaToo, rui] = [openTab({ scope: "u-ana" }), openTab({ scope: "u-ana" }), openTab({ scope: "u-rui" })];
    await settle();
    expect(leaders()).toEqual([ana, rui]);
    ana.streams[0]!.emit("message", { body: "for Ana" }, 3);
    await settle();
    expect(anaToo.applied).toEqual([["message", { body: "for Ana" }]]);
    expect(rui.applied).toEqual([]);
  });

  it("keeps one stream per tab where the browser has no Web Locks or BroadcastChannel, paused while that tab is hidden a minute", async () => {
    const [first, second] = [openTab({ supported: false }), openTab({ supported: false })];
    await settle();
    expect(leaders()).toEqual([first, second]);
    expect(second.streams[0]!.from).toEqual({ lastEventId: undefined, up: false });
    setVisible(first, false);
    await vi.advanceTimersByTimeAsync(HIDDEN_PAUSE_MS);
    expect(first.streams[0]!.pause).toHaveBeenCalledTimes(1);
    expect(second.streams[0]!.pause).not.toHaveBeenCalled();
    setVisible(first, true);
    await settle();
    expect(first.streams[0]!.resume).toHaveBeenCalledTimes(1);
  });

  it("keeps the stream while any tab is visible, closes it when all have been hidden a minute, and resumes when one is shown", async () => {
    const [first, second] = [openTab(), openTab()];
    await settle();
    const stream = first.streams[0]!;
    setVisible(first, false);
    await settle();
    await vi.advanceTimersByTimeAsync(HIDDEN_PAUSE_MS * 3);
    expect(stream.pause).not.toHaveBeenCalled();

    setVisible(second, false);
    await settle();
    await vi.advanceTimersByTimeAsync(HIDDEN_PAUSE_MS - 1_000);
    expect(stream.pause).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(stream.pause).toHaveBeenCalledTimes(1);

    setVisible(second, true);
    await settle();
    expect(stream.resume).toHaveBeenCalledTimes(1);
  });

  it("a tab shown whose leader does not answer (a phone froze it) takes the stream over from its id; the frozen one steps down and queues", async () => {
    const [first, second, third] = [openTab(), openTab({ visible: false }), openTab({ visible: false })];
    await settle();
    first.streams[0]!.up(true);
    first.streams[0]!.emit("message", { body: "one" }, 1);
    await settle();
    // The phone hides and freezes the first tab; the second is shown.
    first.visible = false;
    first.channel!.frozen = true;
    setVisible(second, true);
    await vi.advanceTimersByTimeAsync(LEADER_ANSWER_MS - 1);
    expect(second.streams).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(second.streams[0]!.from).toEqual({ lastEventId: "1", up: true });
    expect(first.streams[0]!.stop).toHaveBeenCalledTimes(1);
    expect(locks.held.filter((held) => held.name.startsWith("two-of-us:live-leader")).map((held) => held.tab)).toEqual([1]);
    // Thawed, it is fed by the new leader; its stopped stream told nobody the stream was down.
    first.channel!.thaw();
    second.streams[0]!.emit("message", { body: "two" }, 2);
    await settle();
    expect(first.applied.map(([, data]) => (data as { body: string }).body)).toEqual(["one", "two"]);
    expect(third.applied.map(([, data]) => (data as { body: string }).body)).toEqual(["one", "two"]);
    expect(third.ups).toEqual([true]);
    expect(first.ups.at(-1)).toBe(true);
    // It queued again, behind the third: it leads once both have closed.
    second.shared.stop();
    await settle();
    expect(third.streams[0]!.from).toEqual({ lastEventId: "2", up: true });
    third.shared.stop();
    await settle();
    expect(first.streams).toHaveLength(2);
    expect(first.streams[1]!.from).toEqual({ lastEventId: "2", up: true });
  });

  it("a tab kept shown asks the leader again while it is shown: a leader frozen later is taken over too", async () => {
    const [first, second] = [openTab({ visible: false }), openTab()];
    await settle();
    first.streams[0]!.up(true);
    await vi.advanceTimersByTimeAsync(LEADER_ANSWER_MS * 2);
    expect(leaders()).toEqual([first]);
    first.channel!.frozen = true;
    await vi.advanceTimersByTimeAsync(15_000 + LEADER_ANSWER_MS);
    expect(second.streams).toHaveLength(1);
    expect(first.streams[0]!.stop).toHaveBeenCalledTimes(1);
  });

  it("a tab shown whose leader answers leaves the stream where it is", async () => {
    const [first, second] = [openTab(), openTab({ visible: false })];
    await settle();
    first.streams[0]!.up(true);
    setVisible(second, true);
    await vi.advanceTimersByTimeAsync(LEADER_ANSWER_MS * 2);
    expect(leaders()).toEqual([first]);
    expect(first.streams[0]!.stop).not.toHaveBeenCalled();
  });

  it("counts a crashed visible tab as gone, and a short absence of every tab as nothing", async () => {
    const [first, second] = [openTab({ visible: false }), openTab()];
    await settle();
    const stream = first.streams[0]!;
    setVisible(second, false);
    await vi.advanceTimersByTimeAsync(30_000);
    setVisible(second, true);
    await vi.advanceTimersByTimeAsync(HIDDEN_PAUSE_MS * 2);
    expect(stream.pause).not.toHaveBeenCalled();
    crash(second);
    // The hidden leader looks again every 15 s.
    await vi.advanceTimersByTimeAsync(15_000 + HIDDEN_PAUSE_MS - 1_000);
    expect(stream.pause).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(stream.pause).toHaveBeenCalledTimes(1);
  });
});
