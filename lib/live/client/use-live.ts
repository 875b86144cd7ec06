/**
 * The one way what is on screen stays current: `useLive(key, load, options)`.
 *
 * Contract
 * - `key` names what is shown ("notifications:unread", "forum:thread:{id}"); parts are joined
 *   with ":" so a prefix names a group ("notifications" is the count and every page of the list).
 *   One key is one feed per tab, shared by every component that shows it: the first subscriber's
 *   `load` and options feed it (later ones share its state; `load` is always the latest passed),
 *   and it ends with its last subscriber, so a key shown again later starts afresh.
 * - `load(signal)` fetches the value (through the transport, lib/transport/client.ts). The signal
 *   aborts when a newer load or a pushed value supersedes it, or nobody shows the key any more.
 * - The answer is a LiveState: "loading" until the first value, "error" when the first load
 *   failed, "ready" with the latest value after that; a later failure keeps the value shown and
 *   the next load tries again. A load answering the data already shown keeps the shown value (the
 *   same object: nothing showing it renders again). With `initial` (the value the page was rendered with) it is
 *   "ready" at once and nothing loads on mount. With `placeholder` (what this place showed
 *   before, e.g. the last list a dropdown had) it is "ready" with it at once and loads as without
 *   it: what is shown keeps its room, and the answer replaces it.
 * - Feeds. Polling is the default: every `pollMs` while the page is visible, never while it is
 *   hidden (spec section 9: the unread count every 10 s while visible), and at once when it is
 *   shown again (visibility or window focus) if the value is older than `staleMs` (0: always).
 *   Without `pollMs` a key loads on mount, when shown again (if stale) and when invalidated.
 *   Anything else feeds it through this module's functions, which callers never need:
 *     invalidate(prefix)   loads every key under `prefix` again (a write that changed them, or
 *                          an event saying so); keys that cannot load now (hidden page) load
 *                          when shown again.
 *     push(key, value)     sets the value directly, e.g. from an event stream; a load in
 *                          flight is dropped (its answer is older).
 *     push(key, change)    changes the value, `change(current)`, e.g. with a message an event
 *                          carries or the user's own write. A load in flight is dropped and
 *                          asked again: it may have started before the change was written, and
 *                          was asked for more than it (a change never hides what an
 *                          invalidation asked for). Before the key has a value, that load is
 *                          what brings the change.
 *     setStreaming(prefix, up)  a stream feeds the keys under `prefix`: while it is up their
 *                          polling stops; each key loads once when it comes up (its value may be
 *                          older than the stream's first event: the page rendered it before)
 *                          and once when it goes down, as polling resumes, for what the stream
 *                          may have missed.
 *   A key that an event pushed to or invalidated while nothing showed it loads once when it is
 *   shown within MISSED_MS after, even with `initial`: the page may have been rendered before
 *   the event (a navigation under way as a message arrives).
 * - `onLiveRead(prefix, listener)` tells of every answered load of a key under `prefix`, the data
 *   shown answered again too: what is shown beside the value and read apart from it (the rows
 *   'Load more' added below a live first page) is read again with it.
 * - `whileVisible` (default true): loads wait while the page is hidden. false: polls run hidden
 *   too, and nothing is owed when it is shown again.
 * Browser only (the state is per tab); on the server the hook answers its `initial` state.
 */
import "client-only";
import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from "react";

export type LiveState<T> = { status: "loading" } | { status: "error"; error: unknown } | { status: "ready"; value: T };

export type LiveOptions<T> = {
  pollMs?: number;
  staleMs?: number;
  whileVisible?: boolean;
  initial?: T;
  placeholder?: T;
};

type Load<T> = (signal: AbortSignal) => Promise<T>;

type Feed = {
  key: string;
  state: LiveState<unknown>;
  load: Load<unknown>;
  options: LiveOptions<unknown>;
  listeners: Set<() => void>;
  /** When the value was last asked for or pushed (ms). */
  loadedAt: number;
  /** Invalidated while it could not load: loads when the page is shown again. */
  owed: boolean;
  /** The load in flight, until it answers. */
  running?: AbortController;
  timer?: ReturnType<typeof setInterval>;
};

const LOADING: LiveState<never> = { status: "loading" };
const feeds = new Map<string, Feed>();
const streamed = new Set<string>();
/** Who is told of each answered load (onLiveRead), with the prefix they asked for. */
const readListeners = new Set<{ prefix: string; listener: () => void }>();
/** How long an event for a key nothing showed makes its page's value suspect (a slow navigation's time). */
export const MISSED_MS = 60_000;
/** Keys (or prefixes) an event changed while nothing showed them, and when; older ones are dropped as others come. */
const missed = new Map<string, number>();

function noteMissed(key: string): void {
  const now = Date.now();
  for (const [each, at] of missed) if (now - at > MISSED_MS) missed.delete(each);
  missed.set(key, now);
}

const wasMissed = (key: string) => [...missed].some(([each, at]) => under(each, key) && Date.now() - at <= MISSED_MS);

const under = (prefix: string, key: string) => key === prefix || key.startsWith(`${prefix}:`);
const isStreamed = (key: string) => [...streamed].some((prefix) => under(prefix, key));
const pageVisible = () => document.visibilityState === "visible";
const mayLoad = (feed: Feed) => feed.options.whileVisible === false || pageVisible();

/** Whether two loaded values hold the same data: the API's JSON (anything else is the same only when it is the same object). */
function sameData(shown: unknown, loaded: unknown): boolean {
  if (Object.is(shown, loaded)) return true;
  if (typeof shown !== "object" || typeof loaded !== "object" || shown === null || loaded === null) return false;
  if (Array.isArray(shown) || Array.isArray(loaded)) {
    return (
      Array.isArray(shown) &&
      Array.isArray(loaded) &&
      shown.length === loaded.length &&
      shown.every((item, index) => sameData(item, loaded[index]))
    );
  }
  const plain = (value: object) => [Object.prototype, null].includes(Object.getPrototypeOf(value));
  if (!plain(shown) || !plain(loaded)) return false;
  const keys = Object.keys(shown);
  const record = loaded as Record<string, unknown>;
  return (
    keys.length === Object.keys(loaded).length &&
    keys.every((key) => Object.hasOwn(loaded, key) && sameData((shown as Record<string, unknown>)[key], record[key]))
  );
}

function setState(feed: Feed, state: LiveState<unknown>): void {
  feed.state = state;
  for (const listener of feed.listeners) listener();
}

function run(feed: Feed): void {
  feed.running?.abort();
  const running = new AbortController();
  feed.running = running;
  feed.loadedAt = Date.now();
  feed.owed = false;
  const answered = () => {
    if (feed.running === running) feed.running = undefined;
  };
  feed.load(running.signal).then(
    (value) => {
      answered();
      if (running.signal.aborted) return;
      // The value shown, answered again (the stream coming up, a poll, a return to the tab): kept,
      // so nothing that shows it renders again for no change (a page's main thread as it loads).
      if (feed.state.status !== "ready" || !sameData(feed.state.value, value)) setState(feed, { status: "ready", value });
      for (const each of readListeners) if (under(each.prefix, feed.key)) each.listener();
    },
    (error: unknown) => {
      answered();
      // A value already shown stays; the next load tries again (polled for, even while streamed).
      if (!running.signal.aborted && feed.state.status !== "ready") {
        setState(feed, { status: "error", error });
        if (!feed.timer) schedule(feed.key, feed);
      }
    },
  );
}

/** Loads now when it may, else once the page is shown again. */
function loadOrOwe(feed: Feed): void {
  if (mayLoad(feed)) run(feed);
  else feed.owed = true;
}

/**
 * Polls while the feed is polled, the page visible (or `whileVisible: false`), and no stream feeds
 * it, or its first load failed: a stream carries changes, never the value a failed load missed.
 */
function schedule(key: string, feed: Feed): void {
  clearInterval(feed.timer);
  feed.timer = undefined;
  const { pollMs } = feed.options;
  const unfed = !isStreamed(key) || feed.state.status === "error";
  if (pollMs && unfed && mayLoad(feed))
    feed.timer = setInterval(() => {
      // Once it has a value, a stream that feeds it ends its polling.
      if (feed.state.status === "ready" && isStreamed(key)) schedule(key, feed);
      else run(feed);
    }, pollMs);
}

function onShown(): void {
  for (const [key, feed] of feeds) {
    schedule(key, feed);
    if (!pageVisible() || feed.options.whileVisible === false) continue;
    const stale = (!isStreamed(key) || feed.state.status === "error") && Date.now() - feed.loadedAt >= (feed.options.staleMs ?? 0);
    if (feed.owed || stale) run(feed);
  }
}

function onVisibility(): void {
  if (pageVisible()) onShown();
  else for (const [key, feed] of feeds) schedule(key, feed);
}

/** The hook's subscription, for code outside React: `listener` is called on every change; answers the unsubscribe. */
export function subscribeLive(key: string, load: Load<unknown>, options: LiveOptions<unknown>, listener: () => void): () => void {
  let feed = feeds.get(key);
  if (!feed) {
    const hasInitial = options.initial !== undefined;
    const shown = hasInitial ? options.initial : options.placeholder;
    feed = {
      key,
      state: shown === undefined ? LOADING : { status: "ready", value: shown },
      load,
      options,
      listeners: new Set(),
      loadedAt: hasInitial ? Date.now() : 0,
      owed: false,
    };
    if (feeds.size === 0) {
      document.addEventListener("visibilitychange", onVisibility);
      window.addEventListener("focus", onShown);
    }
    feeds.set(key, feed);
    if (!hasInitial || wasMissed(key)) loadOrOwe(feed);
    schedule(key, feed);
  }
  const current = feed;
  current.load = load;
  current.listeners.add(listener);
  return () => {
    current.listeners.delete(listener);
    if (current.listeners.size > 0 || feeds.get(key) !== current) return;
    current.running?.abort();
    clearInterval(current.timer);
    feeds.delete(key);
    if (feeds.size === 0) {
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("focus", onShown);
    }
  };
}

/** Loads every shown key under `prefix` again (see the contract above). */
export function invalidate(prefix: string): void {
  let shown = false;
  for (const [key, feed] of feeds)
    if (under(prefix, key)) {
      shown = true;
      loadOrOwe(feed);
    }
  if (!shown) noteMissed(prefix);
}

/** Calls `listener` whenever a load of a key under `prefix` answers, the same data too (see the contract above); answers the unsubscribe. */
export function onLiveRead(prefix: string, listener: () => void): () => void {
  const entry = { prefix, listener };
  readListeners.add(entry);
  return () => void readListeners.delete(entry);
}

/** Sets a shown key's value, or changes it with `change(current)` (see the contract above). */
export function push<T>(key: string, value: T | ((current: T) => T)): void {
  const feed = feeds.get(key);
  if (!feed) return noteMissed(key);
  const askAgain = typeof value === "function" && feed.running !== undefined;
  let next: unknown = value;
  if (typeof value === "function") {
    if (feed.state.status !== "ready") {
      if (askAgain) loadOrOwe(feed);
      return;
    }
    next = (value as (current: T) => T)(feed.state.value as T);
  }
  feed.running?.abort();
  feed.running = undefined;
  feed.loadedAt = Date.now();
  setState(feed, { status: "ready", value: next });
  if (askAgain) loadOrOwe(feed);
}

/** A stream feeds the keys under `prefix` while `up` (see the contract above). */
export function setStreaming(prefix: string, up: boolean): void {
  if (up === streamed.has(prefix)) return;
  if (up) streamed.add(prefix);
  else streamed.delete(prefix);
  for (const [key, feed] of feeds) {
    if (!under(prefix, key)) continue;
    schedule(key, feed);
    loadOrOwe(feed);
  }
}

/** The state shown under `key` now. */
export const liveState = <T>(key: string): LiveState<T> | undefined => feeds.get(key)?.state as LiveState<T> | undefined;

/** What is shown under `key`, kept current by its feeds (see the contract above). */
export function useLive<T>(
  key: string,
  load: Load<T>,
  { pollMs, staleMs, whileVisible, initial, placeholder }: LiveOptions<T> = {},
): LiveState<T> {
  const latest = useRef({ load, initial, placeholder });
  useEffect(() => {
    latest.current = { load, initial, placeholder };
  });
  const subscribeToKey = useCallback(
    (listener: () => void) =>
      subscribeLive(
        key,
        (signal) => latest.current.load(signal),
        { pollMs, staleMs, whileVisible, initial: latest.current.initial, placeholder: latest.current.placeholder },
        listener,
      ),
    [key, pollMs, staleMs, whileVisible],
  );
  // Before the first subscription (the server, the first render): what it starts from, or loading.
  const first = initial !== undefined ? initial : placeholder;
  const before = useMemo<LiveState<T>>(() => (first === undefined ? LOADING : { status: "ready", value: first }), [first]);
  const snapshot = () => liveState<T>(key) ?? before;
  return useSyncExternalStore(subscribeToKey, snapshot, () => before);
}
