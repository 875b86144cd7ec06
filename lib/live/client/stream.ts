/**
 * The browser's one live stream (GET /api/stream), held by one of its tabs for all (./tabs.ts)
 * and shared in each by everything that shows live data: the
 * bell, the navigation's message badge, the inbox and the open thread. It feeds the live hook
 * (lib/live/client/use-live.ts): each event pushes a fresh value or invalidates the keys it
 * changed, and while the stream is up the keys it feeds stop polling (setStreaming); when it is
 * down they poll again, so a proxy that cannot stream leaves the page on the 10 s poll.
 * Callers keep calling useLive; a component that shows streamed keys calls useLiveStream()
 * (lib/registry/live-client.ts). Which events exist and what each changes, the features say.
 *
 * Connection (spec section 9, realtime): after a failure or the server's end of a stream it
 * reconnects after 1, 2, 5, 10 s, then every 10 s, resuming from the last event id it received
 * (so nothing is missed and nothing repeats); an attempt that has not opened within 10 s, or ends
 * within STEADY_MS of opening, counts as failed. The stream counts as down from the first failed
 * reconnect. When every tab has been hidden for a minute the stream closes, and it resumes when
 * one is shown (./tabs.ts). A stream the server ended for a newer one of the same person
 * (`replaced`) comes back after the wait it names, the keys polling meanwhile.
 */
import "client-only";
import { createContext, useContext, useEffect } from "react";
import {
  ACCOUNT_EVENT,
  HEARTBEAT_EVENT,
  reconnectDelay,
  REPLACED_EVENT,
  REPLACED_RETRY_MS,
  RESET_EVENT,
  SILENT_MS,
  UNREAD_EVENT,
} from "../rules";
import { scopedName, shareStream, TABS_CHANNEL, type ChannelLike, type LocksLike, type SharedStream, type StreamConnection } from "./tabs";
import { invalidate, push, setStreaming } from "./use-live";

/** Spec section 9 (realtime timeout): an attempt that has not opened by then is dropped and retried. */
export const OPEN_TIMEOUT_MS = 10_000;
/**
 * A stream that ends sooner after opening is a failed attempt, not a stream the server ended (its
 * lifetime is minutes): the wait grows, and the keys poll. Without it a server that opens and then
 * fails at once is asked again every second, the keys counting as fed.
 */
export const STEADY_MS = 5_000;

/**
 * What a feature plugs into the browser's stream (the server's half is its lib/live/kinds.ts
 * kinds), listed in lib/registry/live-client.ts.
 */
export type LiveClientFeature = {
  /** Prefixes of the live keys its events keep fresh: they poll only while the stream is down, and load again on `reset`. */
  feeds: readonly string[];
  /** Which live key shows each of its counts in the `unread` event (count name to key). */
  counts?: Readonly<Record<string, string>>;
  /**
   * How the browser applies each of its events (by the stream's event name). A kind is defined
   * once, by the feature that sends it; another feature whose views it changes names it here too
   * (plans, a conversation's ending), and each one's handler applies its part.
   */
  events: Readonly<Record<string, (data: unknown) => void>>;
  /** Its ephemeral kinds' events (sent without an id, never stored): applied as they come, moving no position. */
  ephemeral?: Readonly<Record<string, (data: unknown) => void>>;
};

/** Every event name the stream may send, each once (one listener each): the features' and the foundation's own. */
export const streamEventNames = (features: readonly LiveClientFeature[]): string[] => [
  ...new Set([
    ...features.flatMap((feature) => [...Object.keys(feature.events), ...Object.keys(feature.ephemeral ?? {})]),
    UNREAD_EVENT,
    RESET_EVENT,
    ACCOUNT_EVENT,
  ]),
];

/** The event names sent without an id (the features' ephemeral kinds, and ACCOUNT_EVENT). */
export const unnumberedEventNames = (features: readonly LiveClientFeature[]): string[] => [
  ...features.flatMap((feature) => Object.keys(feature.ephemeral ?? {})),
  ACCOUNT_EVENT,
];

/** The part of EventSource the connection uses (a fake one in the unit tests). */
export type EventSourceLike = {
  onopen: ((event: Event) => void) | null;
  onerror: ((event: Event) => void) | null;
  addEventListener(name: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
};

export type StreamEnvironment = {
  open: (url: string) => EventSourceLike;
  /** The event names to listen for (streamEventNames). */
  events: readonly string[];
  /**
   * Those sent without an id (unnumberedEventNames): handed on with the id "", so they apply
   * whatever the position and move none (the browser gives such an event the previous id).
   */
  unnumbered?: readonly string[];
  /** Called with each event's name, parsed data and id, in order. */
  onEvent: (name: string, data: unknown, id: string) => void;
  /** Called when the stream comes up or goes down. */
  onUp: (up: boolean) => void;
  /** Where to resume from: the last event id this browser applied (a tab taking the stream over). */
  lastEventId?: string;
  /** Whether the keys count as streamed already (another tab's stream fed them until now). */
  initiallyUp?: boolean;
};

/** One stream, reopened by hand on every failure so the schedule is the spec's (the browser's own retry is not). */
export function connectStream(url: string, environment: StreamEnvironment): StreamConnection {
  let source: EventSourceLike | undefined;
  let lastId = environment.lastEventId;
  let attempt = 0;
  /** When the current stream opened (undefined: it has not). */
  let openedAt: number | undefined;
  /** A tab taking the stream over: the other tab's stream was steady until now. */
  let takenOver = environment.initiallyUp ?? false;
  let up = environment.initiallyUp ?? false;
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let openTimeout: ReturnType<typeof setTimeout> | undefined;
  /** Fires when the open stream has been silent for SILENT_MS: it is dead, whatever its connection says. */
  let silence: ReturnType<typeof setTimeout> | undefined;
  let paused = false;
  const unnumbered = new Set(environment.unnumbered);

  const setUp = (value: boolean) => {
    if (up === value) return;
    up = value;
    environment.onUp(value);
  };

  function close(): void {
    clearTimeout(openTimeout);
    clearTimeout(silence);
    if (source) {
      source.onopen = source.onerror = null;
      source.close();
      source = undefined;
    }
  }

  function reopenAfter(ms: number): void {
    if (stopped || paused) return;
    clearTimeout(retry);
    retry = setTimeout(open, ms);
  }

  function failed(): void {
    close();
    // A stream that was up a while and ended (the server's lifetime, a proxy's cut) counts as up
    // until its first reconnect fails: the keys it feeds do not all poll for the second it is away.
    const steady = openedAt !== undefined ? Date.now() - openedAt >= STEADY_MS : takenOver;
    openedAt = undefined;
    takenOver = false;
    if (steady) attempt = 0;
    if (!(up && steady)) setUp(false);
    reopenAfter(reconnectDelay(attempt++));
  }

  /** A newer stream of the same person took this one's place (the server's cap): come back later, poll meanwhile. */
  function replaced(data: unknown): void {
    close();
    setUp(false);
    const retryMs = (data as { retryMs?: unknown } | null)?.retryMs;
    reopenAfter(typeof retryMs === "number" && retryMs > 0 ? retryMs : REPLACED_RETRY_MS);
  }

  function open(): void {
    retry = undefined;
    close();
    const current = environment.open(
      lastId === undefined ? url : `${url}${url.includes("?") ? "&" : "?"}lastEventId=${encodeURIComponent(lastId)}`,
    );
    source = current;
    openTimeout = setTimeout(failed, OPEN_TIMEOUT_MS);
    const heard = () => {
      clearTimeout(silence);
      silence = setTimeout(() => {
        if (source === current) failed();
      }, SILENT_MS);
    };
    current.onopen = () => {
      clearTimeout(openTimeout);
      openedAt = Date.now();
      heard();
      setUp(true);
    };
    current.onerror = failed;
    current.addEventListener(HEARTBEAT_EVENT, () => {
      if (source === current) heard();
    });
    current.addEventListener(REPLACED_EVENT, (event) => {
      if (source === current) replaced(JSON.parse(event.data));
    });
    for (const name of environment.events)
      current.addEventListener(name, (event) => {
        if (source !== current) return;
        heard();
        const id = unnumbered.has(name) ? "" : event.lastEventId;
        if (id) lastId = id;
        environment.onEvent(name, JSON.parse(event.data), id);
      });
  }

  open();
  return {
    pause() {
      if (paused || stopped) return;
      paused = true;
      clearTimeout(retry);
      close();
      setUp(false);
    },
    resume() {
      if (!paused || stopped) return;
      paused = false;
      attempt = 0;
      open();
    },
    stop() {
      stopped = true;
      clearTimeout(retry);
      close();
      setUp(false);
    },
  };
}

/** What each event changes on screen, by every handler the features give it: a value pushed, or keys loaded again. */
export function eventApplier(features: readonly LiveClientFeature[]): (name: string, data: unknown) => void {
  const handlers = new Map<string, ((data: unknown) => void)[]>();
  for (const feature of features)
    for (const [name, handler] of [...Object.entries(feature.events), ...Object.entries(feature.ephemeral ?? {})])
      handlers.set(name, [...(handlers.get(name) ?? []), handler]);
  const counts = features.flatMap((feature) => Object.entries(feature.counts ?? {}));
  const fed = features.flatMap((feature) => feature.feeds);
  return (name, data) => {
    if (name === UNREAD_EVENT) {
      const values = data as Record<string, number>;
      for (const [count, key] of counts) if (typeof values[count] === "number") push(key, values[count]);
    } else if (name === RESET_EVENT) {
      // What was missed is no longer kept: everything the stream feeds loads again.
      for (const prefix of fed) invalidate(prefix);
    } else if (name === ACCOUNT_EVENT) {
      // The session is another person's now: the page loads again as theirs (or as signed out).
      window.location.reload();
    } else
      for (const handler of handlers.get(name) ?? [])
        try {
          handler(data);
        } catch (error) {
          // One feature's fault leaves the others' views current: it is reported as uncaught, and the rest run.
          reportError(error);
        }
  };
}

let shared: { connection: SharedStream; users: number; onVisibility: () => void; viewerId: string } | undefined;

/** The browser's Web Locks and a channel to the person's other tabs, where it has both. */
function tabsOf(viewerId: string): { locks?: LocksLike; channel?: ChannelLike; scope: string } {
  if (typeof navigator.locks === "undefined" || typeof BroadcastChannel === "undefined") return { scope: viewerId };
  return { locks: navigator.locks, channel: new BroadcastChannel(scopedName(TABS_CHANNEL, viewerId)), scope: viewerId };
}

function release(current: NonNullable<typeof shared>): void {
  document.removeEventListener("visibilitychange", current.onVisibility);
  current.connection.stop();
  if (shared === current) shared = undefined;
}

function retain(features: readonly LiveClientFeature[], viewerId: string): () => void {
  // A page of another person (signed in anew without a reload): their own stream, never the last one's.
  if (shared && shared.viewerId !== viewerId) release(shared);
  if (!shared) {
    const fed = features.flatMap((feature) => feature.feeds);
    const events = streamEventNames(features);
    const unnumbered = unnumberedEventNames(features);
    const connection = shareStream({
      ...tabsOf(viewerId),
      connect: ({ lastEventId, up }, onEvent, onUp) =>
        // `as`: whom this page was rendered for (the server answers another session with ACCOUNT_EVENT).
        connectStream(`/api/stream?as=${encodeURIComponent(viewerId)}`, {
          open: (url) => new EventSource(url),
          events,
          unnumbered,
          onEvent,
          onUp,
          lastEventId,
          initiallyUp: up,
        }),
      apply: eventApplier(features),
      onUp: (up) => fed.forEach((prefix) => setStreaming(prefix, up)),
      visible: () => document.visibilityState !== "hidden",
    });
    const onVisibility = () => connection.visibilityChanged();
    document.addEventListener("visibilitychange", onVisibility);
    shared = { connection, users: 0, onVisibility, viewerId };
  }
  const current = shared;
  current.users++;
  return () => {
    if (--current.users > 0 || shared !== current) return;
    release(current);
  };
}

/**
 * Keeps the browser's one live stream open (./tabs.ts: one tab holds it for all) while the calling component is shown, applying the
 * registered features' events (lib/registry/live-client.ts calls it with the list).
 */
export function useStream(features: readonly LiveClientFeature[]): void {
  const viewerId = useContext(LiveViewerContext);
  useEffect(() => (viewerId ? retain(features, viewerId) : undefined), [features, viewerId]);
}

/**
 * Whom the page was rendered for (the signed-in layout provides it: components/layout/LiveViewer.tsx):
 * the stream and the tabs that share it are that person's; without one no stream opens.
 */
export const LiveViewerContext = createContext<string | null>(null);
