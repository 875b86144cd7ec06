/**
 * The simulated browsers of the `tabs` section (tabs.ts), in a process of their own: run with
 * `node --import tsx` and no react-server condition, since the tabs run the app's browser code.
 * Each browser's tabs run the app's own lib/live/client/tabs.ts (shareStream) and stream.ts
 * (connectStream); what stands in for the browser is its Web Locks (LockTable below: FIFO per name,
 * shared and exclusive, freed with their tab), its BroadcastChannel (Node's own, one name per
 * browser) and EventSource (FetchEventSource below: one real HTTP/1.1 stream to the server).
 * Reads its plan from the JSON file named by argv[2]; prints its figures as one JSON line.
 */
import { readFileSync } from "node:fs";
import { connectStream, streamEventNames, type EventSourceLike } from "@/lib/live/client/stream";
import { shareStream, type ChannelLike, type LocksLike, type SharedStream } from "@/lib/live/client/tabs";

export type TabsPlan = {
  origin: string;
  tabsPerBrowser: number;
  /** One per browser: whose it is (the account's cookie) and its index among the accounts. */
  browsers: { cookie: string; user: number }[];
  /** One reply per round: to `post` of `user`, written with `token`. */
  rounds: { user: number; post: string; token: string }[];
};

export type TabsFigures = {
  browsers: number;
  tabs: number;
  /** Streams the simulated browsers opened (EventSources made). */
  opened: number;
  /** Streams the server counts open (its own register, /api/bench/memory). */
  serverStreams: number;
  serverHeapBytes: number;
  /** Milliseconds from each reply's answer (and from its sending) to its event in each tab of its author. */
  fromAnswer: number[];
  fromSend: number[];
  lost: number;
};

const DELIVERY_TIMEOUT_MS = 10_000;
const OPEN_BATCH = 50;
const EVENTS = streamEventNames([{ feeds: [], events: { notification: () => {} } }]);

type Entry = { name: string; mode: "shared" | "exclusive"; run: () => void };

/** A browser's Web Locks: granted in order per name, shared ones together. */
class LockTable {
  private held: Entry[] = [];
  private queue: Entry[] = [];
  readonly locks: LocksLike = {
    request: (name, options, granted) =>
      new Promise((resolve, reject) => {
        const entry: Entry = {
          name,
          mode: options.mode ?? "exclusive",
          run: () =>
            void Promise.resolve(granted()).then((value) => {
              this.held = this.held.filter((held) => held !== entry);
              this.process();
              resolve(value);
            }),
        };
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
}

/** EventSource over fetch: one HTTP/1.1 response read as server-sent events (id, event, data). */
class FetchEventSource implements EventSourceLike {
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  private listeners = new Map<string, (event: MessageEvent<string>) => void>();
  private abort = new AbortController();
  private lastEventId = "";

  constructor(url: string, cookie: string, onOpened: () => void) {
    void this.read(url, cookie, onOpened);
  }

  addEventListener(name: string, listener: (event: MessageEvent<string>) => void): void {
    this.listeners.set(name, listener);
  }

  close(): void {
    this.abort.abort();
  }

  private async read(url: string, cookie: string, onOpened: () => void): Promise<void> {
    try {
      const response = await fetch(url, { headers: { cookie }, signal: this.abort.signal });
      if (!response.ok || !response.body) throw new Error(`${response.status}`);
      onOpened();
      this.onopen?.(new Event("open"));
      let buffer = "";
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let name = "message";
          let data = "";
          for (const line of block.split("\n")) {
            if (line.startsWith("id: ")) this.lastEventId = line.slice(4);
            else if (line.startsWith("event: ")) name = line.slice(7);
            else if (line.startsWith("data: ")) data = line.slice(6);
          }
          if (data) this.listeners.get(name)?.({ data, lastEventId: this.lastEventId } as MessageEvent<string>);
        }
      }
      this.onerror?.(new Event("error"));
    } catch {
      if (!this.abort.signal.aborted) this.onerror?.(new Event("error"));
    }
  }
}

type Tab = { shared: SharedStream; onNotification?: () => void };

async function main(): Promise<void> {
  const plan = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as TabsPlan;
  let opened = 0;
  const tabsOf = new Map<number, Tab[]>();
  const channels: BroadcastChannel[] = [];

  const openBrowser = (browser: { cookie: string; user: number }, index: number) => {
    const { locks } = new LockTable();
    for (let t = 0; t < plan.tabsPerBrowser; t++) {
      const channel = new BroadcastChannel(`bench-browser-${index}`);
      channels.push(channel);
      const tab: Tab = {} as Tab;
      tab.shared = shareStream({
        locks,
        channel: channel as unknown as ChannelLike,
        connect: ({ lastEventId, up }, onEvent, onUp) =>
          connectStream(`${plan.origin}/api/stream`, {
            open: (url) => new FetchEventSource(url, browser.cookie, () => opened++),
            events: EVENTS,
            onEvent,
            onUp,
            lastEventId,
            initiallyUp: up,
          }),
        apply: (name) => {
          if (name === "notification") tab.onNotification?.();
        },
        onUp: () => {},
        visible: () => true,
      });
      tabsOf.set(browser.user, [...(tabsOf.get(browser.user) ?? []), tab]);
    }
  };

  // Browsers open in batches, each batch's streams open before the next: as people arrive, not all at once.
  for (let start = 0; start < plan.browsers.length; start += OPEN_BATCH) {
    const batch = plan.browsers.slice(start, start + OPEN_BATCH);
    batch.forEach((browser, k) => openBrowser(browser, start + k));
    const deadline = Date.now() + DELIVERY_TIMEOUT_MS * 3;
    while (opened < start + batch.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const memory = (await (await fetch(`${plan.origin}/api/bench/memory`, { headers: { "x-forwarded-for": "198.18.9.1" } })).json()) as {
    heapUsed: number;
    liveStreams: number;
  };

  const fromAnswer: number[] = [];
  const fromSend: number[] = [];
  let lost = 0;
  for (const [index, round] of plan.rounds.entries()) {
    const tabs = tabsOf.get(round.user) ?? [];
    let sent = 0;
    let answered = 0;
    const arrived = tabs.map(
      (tab) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            lost++;
            tab.onNotification = undefined;
            resolve();
          }, DELIVERY_TIMEOUT_MS);
          tab.onNotification = () => {
            // An event can only follow the commit; it may come before this side read the answer: 0 then.
            fromAnswer.push(answered ? performance.now() - answered : 0);
            fromSend.push(performance.now() - sent);
            tab.onNotification = undefined;
            clearTimeout(timer);
            resolve();
          };
        }),
    );
    sent = performance.now();
    const response = await fetch(`${plan.origin}/api/forum/posts/${round.post}/replies`, {
      method: "POST",
      headers: { authorization: `Bearer ${round.token}`, "content-type": "application/json", "x-forwarded-for": `198.18.8.${index % 250}` },
      body: JSON.stringify({ body: `Tabs bench reply ${index}` }),
    });
    answered = performance.now();
    if (!response.ok) throw new Error(`reply ${index}: ${response.status} ${await response.text()}`);
    await Promise.all(arrived);
  }

  const figures: TabsFigures = {
    browsers: plan.browsers.length,
    tabs: plan.browsers.length * plan.tabsPerBrowser,
    opened,
    serverStreams: memory.liveStreams,
    serverHeapBytes: memory.heapUsed,
    fromAnswer,
    fromSend,
    lost,
  };
  for (const tabs of tabsOf.values()) for (const tab of tabs) tab.shared.stop();
  channels.forEach((channel) => channel.close());
  console.log(JSON.stringify(figures));
  process.exit(0);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
