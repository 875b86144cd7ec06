import "server-only";
import type { Options, PostgresType } from "postgres";
import { getDb } from "@/db/client";
import { env } from "@/lib/env";
import { describeError } from "@/lib/log";
import { onShutdown } from "@/lib/shutdown";
import type { EphemeralMessage } from "./kinds";
import { LIVE_CHANNEL } from "./publish";

/**
 * Listens on the live channel until the connection drops: resolves once listening, calls
 * `onPayload` with each notification's payload and `onClosed` once when the connection is lost.
 * Answers how to stop listening.
 */
export type ListenSource = (onPayload: (payload: string) => void, onClosed: () => void) => Promise<() => Promise<void>>;

/** Called without a message when the person may have new live rows; with one for an ephemeral message naming them. */
export type Wake = (message?: EphemeralMessage) => void;

export type LiveListener = {
  /**
   * Calls `wake` whenever `userId` may have new live rows: a notification naming them, or the
   * listener's (re)connection (what was published while it was away is in the rows); and
   * `wake(message)` with each ephemeral message naming them. Answers the unsubscribe.
   */
  subscribe(userId: string, wake: Wake): () => void;
  /** Resolves once the listener is listening (it may drop and reconnect later). */
  ready(): Promise<void>;
  close(): Promise<void>;
};

/** Waits between attempts to listen again after the connection dropped (the last one repeats). */
const RELISTEN_MS = [100, 500, 1_000, 2_000, 5_000];

const isIdList = (value: unknown): value is string[] => Array.isArray(value) && value.every((id) => typeof id === "string");
const isTextRecord = (value: unknown): value is Record<string, string> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).every((text) => typeof text === "string");

/** An ephemeral message from a notification's payload (lib/live/publish.ts), or null when it is not one. */
export function parseEphemeral(payload: string): EphemeralMessage | null {
  if (!payload.startsWith("{")) return null;
  try {
    const { kind, to, subjectId, payload: data } = JSON.parse(payload) as Record<string, unknown>;
    if (typeof kind !== "string" || typeof subjectId !== "string" || !isIdList(to) || !isTextRecord(data)) return null;
    return { kind, to, subjectId, payload: data };
  } catch {
    return null;
  }
}

/** A postgres.js connection of its own that only listens: never one per stream, never the pool's. */
export function postgresSource(url: string): ListenSource {
  return async (onPayload, onClosed) => {
    const { default: postgres } = await import("postgres");
    let open = true;
    const options: Partial<Options<Record<string, PostgresType>>> & { onnotify: (channel: string, payload: string) => void } = {
      max: 1,
      connect_timeout: 3,
      // The connection only waits for notifications: never closed for being idle or old.
      idle_timeout: 0,
      max_lifetime: null,
      fetch_types: false,
      onnotice: () => {},
      // What postgres.js's own listen() uses; its listen() re-listens once and gives up on failure.
      onnotify: (channel, payload) => {
        if (channel === LIVE_CHANNEL) onPayload(payload);
      },
      onclose: () => {
        if (!open) return;
        open = false;
        void sql.end({ timeout: 0 }).catch(() => {});
        onClosed();
      },
    };
    const sql = postgres(url, options);
    try {
      await sql`listen ${sql(LIVE_CHANNEL)}`;
    } catch (error) {
      open = false;
      await sql.end({ timeout: 0 }).catch(() => {});
      throw error;
    }
    return async () => {
      open = false;
      await sql.end({ timeout: 1 });
    };
  };
}

/** The embedded database's own listen (one process holds it, so it never drops). */
export function pgliteSource(): ListenSource {
  return async (onPayload) => {
    const db = (await getDb()) as unknown as {
      $client: { listen: (channel: string, cb: (payload: string) => void) => Promise<() => Promise<void>> };
    };
    return db.$client.listen(LIVE_CHANNEL, onPayload);
  };
}

/** How long a Postgres listener with no stream to wake keeps its connection before it rests. */
export const LISTENER_REST_MS = 60_000;

/**
 * One listener for every stream of this instance. A notification wakes the streams of the people
 * it names; they read their new rows (or, given an ephemeral message, send it). When the
 * connection drops, the streams stay open and the listener listens again (after RELISTEN_MS);
 * then it wakes every stream, which reads from the rows whatever was published meanwhile (NOTIFY
 * is only a wake-up: the rows are the record; a passing ephemeral message is simply lost).
 * With `restMs`, once no stream has been subscribed for that long it closes its connection (an
 * idle instance holds none of the database's connections) and listens again with the next one.
 */
export function createListener(source: ListenSource, { restMs }: { restMs?: number } = {}): LiveListener {
  const subscribers = new Map<string, Set<Wake>>();
  let stop: (() => Promise<void>) | undefined;
  let closed = false;
  let resting = false;
  let restTimer: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let markReady!: () => void;
  const listening = new Promise<void>((resolve) => (markReady = resolve));

  const wakeAll = () => {
    for (const wakes of subscribers.values()) for (const wake of wakes) wake();
  };
  const onPayload = (payload: string) => {
    const message = parseEphemeral(payload) ?? undefined;
    // A payload shaped like an ephemeral message that is not a valid one names nobody.
    const people = message ? message.to : payload.startsWith("{") ? [] : payload.split(",");
    for (const userId of people) for (const wake of subscribers.get(userId) ?? []) wake(message);
  };

  let generation = 0;
  async function listen(): Promise<void> {
    retry = undefined;
    if (closed || resting) return;
    // Only the newest attempt keeps its connection (a rest and a new stream may overlap one).
    const mine = ++generation;
    try {
      const stopping = await source(onPayload, () => {
        if (mine !== generation) return;
        stop = undefined;
        console.warn("[live] listener connection lost; listening again");
        schedule();
      });
      if (closed || resting || mine !== generation) return void (await stopping().catch(() => {}));
      stop = stopping;
      attempt = 0;
      markReady();
      wakeAll();
    } catch (error) {
      console.warn("[live] listener could not listen", describeError(error));
      if (mine === generation) schedule();
    }
  }

  function schedule(): void {
    if (closed || resting || retry) return;
    retry = setTimeout(() => void listen(), RELISTEN_MS[Math.min(attempt++, RELISTEN_MS.length - 1)]);
    retry.unref?.();
  }

  /** Closes the connection once no stream has been subscribed for `restMs`. */
  function restSoon(): void {
    if (restMs === undefined || closed || subscribers.size > 0) return;
    clearTimeout(restTimer);
    restTimer = setTimeout(() => {
      if (closed || subscribers.size > 0) return;
      resting = true;
      clearTimeout(retry);
      retry = undefined;
      attempt = 0;
      const stopping = stop;
      stop = undefined;
      void stopping?.().catch(() => {});
    }, restMs);
    restTimer.unref?.();
  }

  void listen();
  restSoon();
  return {
    subscribe(userId, wake) {
      clearTimeout(restTimer);
      if (resting) {
        // Listening again wakes every stream: what was published while it rested is in the rows.
        resting = false;
        void listen();
      }
      const wakes = subscribers.get(userId) ?? new Set();
      wakes.add(wake);
      subscribers.set(userId, wakes);
      return () => {
        wakes.delete(wake);
        if (wakes.size === 0 && subscribers.get(userId) === wakes) subscribers.delete(userId);
        restSoon();
      };
    },
    ready: () => listening,
    async close() {
      closed = true;
      clearTimeout(retry);
      clearTimeout(restTimer);
      await stop?.().catch(() => {});
    },
  };
}

const globalForLive = globalThis as unknown as { __liveListener?: LiveListener };

/**
 * This instance's listener, started by its first stream. LISTEN needs a session of its own, so
 * on Postgres it uses the direct URL where the pooled one is a transaction pooler.
 */
export function liveListener(): LiveListener {
  const { DATABASE_URL, DATABASE_URL_UNPOOLED } = env();
  if (!globalForLive.__liveListener) {
    // The embedded database's listen costs no connection: only a Postgres listener rests.
    const listener = DATABASE_URL
      ? createListener(postgresSource(DATABASE_URL_UNPOOLED ?? DATABASE_URL), { restMs: LISTENER_REST_MS })
      : createListener(pgliteSource());
    globalForLive.__liveListener = listener;
    onShutdown("work", () => {
      globalForLive.__liveListener = undefined;
      return listener.close();
    });
  }
  return globalForLive.__liveListener;
}
