/**
 * The tab's one live stream (GET /api/stream), shared by everything that shows live data: the
 * bell, the navigation's message badge, the inbox and the open thread. It feeds the live hook
 * (lib/live/client/use-live.ts): each event pushes a fresh value or invalidates the keys it
 * changed, and while the stream is up the keys it feeds stop polling (setStreaming); when it is
 * down they poll again, so a proxy that cannot stream leaves the page on the 10 s poll.
 * Callers keep calling useLive; a component that shows streamed keys calls useLiveStream().
 *
 * Connection (spec section 9, realtime): after a failure or the server's end of a stream it
 * reconnects after 1, 2, 5, 10 s, then every 10 s, resuming from the last event id it received
 * (so nothing is missed and nothing repeats); an attempt that has not opened within 10 s counts
 * as failed. The stream counts as down from the first failed reconnect. A tab hidden for more
 * than a minute closes its stream and resumes on return.
 */
import "client-only";
import { useEffect } from "react";
import { INBOX_KEY, MESSAGES_KEY, REQUESTS_KEY, threadKey, UNREAD_MESSAGES_KEY } from "@/lib/messages/client/api";
import { withMessage, withReadPosition, type Message, type ReadPosition, type ThreadValue } from "@/lib/messages/view";
import { NOTIFICATIONS_KEY, UNREAD_KEY } from "@/lib/notifications/client";
import { HIDDEN_PAUSE_MS, reconnectDelay, STREAM_EVENTS, type StreamEventName } from "../rules";
import { invalidate, liveState, push, setStreaming } from "./use-live";

/** Spec section 9 (realtime timeout): an attempt that has not opened by then is dropped and retried. */
export const OPEN_TIMEOUT_MS = 10_000;

/** The live keys the stream feeds (prefixes of the useLive keys shown by the bell and messaging). */
const FED = [NOTIFICATIONS_KEY, MESSAGES_KEY] as const;

/** The part of EventSource the connection uses (a fake one in the unit tests). */
export type EventSourceLike = {
  onopen: ((event: Event) => void) | null;
  onerror: ((event: Event) => void) | null;
  addEventListener(name: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
};

export type StreamEnvironment = {
  open: (url: string) => EventSourceLike;
  /** Called with each event's name and parsed data, in order. */
  onEvent: (name: StreamEventName, data: unknown) => void;
  /** Called when the stream comes up or goes down. */
  onUp: (up: boolean) => void;
  /** Whether the page is hidden now. */
  hidden: () => boolean;
};

export type StreamConnection = {
  /** Call when the page's visibility changes. */
  visibilityChanged(): void;
  stop(): void;
};

/** One stream, reopened by hand on every failure so the schedule is the spec's (the browser's own retry is not). */
export function connectStream(url: string, environment: StreamEnvironment): StreamConnection {
  let source: EventSourceLike | undefined;
  let lastId: string | undefined;
  let attempt = 0;
  let up = false;
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let openTimeout: ReturnType<typeof setTimeout> | undefined;
  let pause: ReturnType<typeof setTimeout> | undefined;
  let paused = false;

  const setUp = (value: boolean) => {
    if (up === value) return;
    up = value;
    environment.onUp(value);
  };

  function close(): void {
    clearTimeout(openTimeout);
    if (source) {
      source.onopen = source.onerror = null;
      source.close();
      source = undefined;
    }
  }

  function failed(): void {
    close();
    // A stream that was up and ended (the server's lifetime, a proxy's cut) counts as up until its
    // first reconnect fails: the keys it feeds do not all poll for the second it is away.
    if (!(up && attempt === 0)) setUp(false);
    if (stopped || paused) return;
    clearTimeout(retry);
    retry = setTimeout(open, reconnectDelay(attempt++));
  }

  function open(): void {
    retry = undefined;
    close();
    const current = environment.open(lastId === undefined ? url : `${url}?lastEventId=${encodeURIComponent(lastId)}`);
    source = current;
    openTimeout = setTimeout(failed, OPEN_TIMEOUT_MS);
    current.onopen = () => {
      clearTimeout(openTimeout);
      attempt = 0;
      setUp(true);
    };
    current.onerror = failed;
    for (const name of STREAM_EVENTS)
      current.addEventListener(name, (event) => {
        if (source !== current) return;
        if (event.lastEventId) lastId = event.lastEventId;
        environment.onEvent(name, JSON.parse(event.data));
      });
  }

  open();
  return {
    visibilityChanged() {
      clearTimeout(pause);
      if (environment.hidden()) {
        pause = setTimeout(() => {
          paused = true;
          clearTimeout(retry);
          close();
          setUp(false);
        }, HIDDEN_PAUSE_MS);
      } else if (paused) {
        paused = false;
        attempt = 0;
        open();
      }
    },
    stop() {
      stopped = true;
      clearTimeout(retry);
      clearTimeout(pause);
      close();
      setUp(false);
    },
  };
}

type Counts = { notifications: number; messages: number };
type Changed = { conversationId?: string | null };

/** What each event changes on screen: a value pushed, or keys loaded again. */
export function applyEvent(name: StreamEventName, data: unknown): void {
  switch (name) {
    case "unread": {
      const counts = data as Counts;
      push(UNREAD_KEY, counts.notifications);
      push(UNREAD_MESSAGES_KEY, counts.messages);
      return;
    }
    case "notification":
      push(UNREAD_KEY, (data as { unread_count: number }).unread_count);
      invalidate(`${NOTIFICATIONS_KEY}:page`);
      return;
    case "message": {
      // The message as the thread shows it (lib/live/queries.ts render): an open thread takes it
      // as it is, each message once by id; the inbox's row (its unread count) loads again.
      const message = data as Message;
      push<ThreadValue>(threadKey(message.conversationId), (thread) => withMessage(thread, message));
      invalidate(INBOX_KEY);
      return;
    }
    case "read": {
      // A person's read position as the thread shows it: 'Seen by' follows without a load. A
      // reader the open thread does not know (a partner who joined since it loaded) loads it again.
      const position = data as ReadPosition & { conversationId: string };
      const key = threadKey(position.conversationId);
      const shown = liveState<ThreadValue>(key);
      if (shown?.status === "ready" && !shown.value.conversation.readPositions.some((p) => p.userId === position.userId)) invalidate(key);
      else push<ThreadValue>(key, (thread) => withReadPosition(thread, position));
      invalidate(INBOX_KEY);
      return;
    }
    case "message-deleted": {
      const conversation = (data as Changed).conversationId;
      if (conversation) invalidate(threadKey(conversation));
      invalidate(INBOX_KEY);
      return;
    }
    case "connection": {
      const conversation = (data as Changed).conversationId;
      if (conversation) invalidate(threadKey(conversation));
      invalidate(REQUESTS_KEY);
      invalidate(INBOX_KEY);
      return;
    }
    case "reset":
      // What was missed is no longer kept: everything the stream feeds loads again.
      for (const prefix of FED) invalidate(prefix);
      return;
  }
}

let shared: { connection: StreamConnection; users: number; onVisibility: () => void } | undefined;

function retain(): () => void {
  if (!shared) {
    const connection = connectStream("/api/stream", {
      open: (url) => new EventSource(url),
      onEvent: applyEvent,
      onUp: (up) => FED.forEach((prefix) => setStreaming(prefix, up)),
      hidden: () => document.visibilityState === "hidden",
    });
    const onVisibility = () => connection.visibilityChanged();
    document.addEventListener("visibilitychange", onVisibility);
    shared = { connection, users: 0, onVisibility };
  }
  const current = shared;
  current.users++;
  return () => {
    if (--current.users > 0 || shared !== current) return;
    document.removeEventListener("visibilitychange", current.onVisibility);
    current.connection.stop();
    shared = undefined;
  };
}

/** Keeps the tab's one live stream open while the calling component is shown. */
export function useLiveStream(): void {
  useEffect(() => retain(), []);
}
