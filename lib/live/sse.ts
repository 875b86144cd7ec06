import "server-only";
import type { Db } from "@/db/client";
import { activeSessionUser, activeSessionUsers } from "@/lib/auth/sessions";
import { describeError } from "@/lib/log";
import { onShutdown } from "@/lib/shutdown";
import { createHeartbeat, type Heartbeat } from "./heartbeat";
import { renderContext, UNREAD, type EphemeralMessage, type LiveRegistry } from "./kinds";
import { liveListener, type LiveListener } from "./listener";
import { historyBounds, newestSeqs, PAGE_ROWS, render, rowsAfter, unreadCounts, type Outgoing } from "./queries";
import { openStreams } from "./open-streams";
import {
  ACCOUNT_EVENT,
  HEARTBEAT_EVENT,
  HEARTBEAT_MS,
  RECONNECT_DELAYS_MS,
  replacedEvent,
  RESET_EVENT,
  sseEvent,
  STREAMS_PER_PERSON,
  unnumberedEvent,
} from "./rules";

export type LiveStreamOptions = {
  db: Db;
  userId: string;
  /** The caller's session: checked again before each page is sent and at each heartbeat. */
  sessionId: string;
  /** The kinds the features registered (lib/registry/live.ts). */
  registry: LiveRegistry;
  /** Whom the page that opened the stream was rendered for (null: not said); another person than the session's gets ACCOUNT_EVENT. */
  pageUserId?: string | null;
  /** What the client already has (lib/live/rules.ts parseEventId): null for a first open. */
  resumeFrom: number | null | "unknown";
  /** How long the stream stays open before it ends itself (lib/live/rules.ts streamLifetimeMs). */
  lifetimeMs: number;
  listener?: LiveListener;
  heartbeatMs?: number;
  /** The request's signal: the stream stops when the client goes. */
  signal?: AbortSignal;
  /** How many streams the person may hold open on this instance (a test may ask for fewer). */
  perPerson?: number;
};

/** A stream queues this much before it waits for the client to read (a long resume is sent page by page). */
const QUEUE_BYTES = 64 * 1024;

/**
 * One read for every stream that asks for the same thing in the same tick: the listener wakes all
 * of a person's streams (their tabs and devices) in one synchronous loop, so those at the same
 * position share one page read and one session check. A read started in an earlier tick is never
 * shared (it may predate the commit that caused the wake-up).
 */
function sharedInTick<T>(pending: Map<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> {
  let found = pending.get(key);
  if (!found) {
    found = read();
    pending.set(key, found);
    queueMicrotask(() => pending.delete(key));
  }
  return found;
}

const encoder = new TextEncoder();
const HEARTBEAT = encoder.encode(unnumberedEvent(HEARTBEAT_EVENT, null));

/** A page as sent: its events' bytes (null: none to send) and where it ends (null: nothing new). */
type Page = { last: number | null; full: boolean; bytes: Uint8Array | null };
const pagesReading = new Map<string, Promise<Page>>();
const sessionsChecking = new Map<string, Promise<string | null>>();

const encodeEvents = (events: Outgoing[]) =>
  events.length ? encoder.encode(events.map((event) => sseEvent(event.id, event.event, event.data)).join("")) : null;

/**
 * The person's next page after `after`: read, rendered and encoded once for all their streams at
 * that position (each sends the same bytes). A person's rows are numbered without holes and
 * trimmed only from the oldest (lib/scheduled/service.ts), so a page that does not begin at
 * `after + 1` follows rows trimmed before they were sent (a long resume paged while the due work
 * ran): it opens with `reset` just before its first row, and the client reloads its lists. An
 * empty page may follow such rows too, trimmed up to the newest: when the person's newest seq is
 * past `after` and a read after it still finds no row, they are gone, and the page is a `reset`
 * at that seq (the newest is read before the rows it is compared with: a row committed between
 * two reads is never taken for a trimmed one).
 */
const readPage = (db: Db, userId: string, after: number, registry: LiveRegistry): Promise<Page> =>
  sharedInTick(pagesReading, `${userId}:${after}`, async () => {
    let rows = await rowsAfter(db, userId, after);
    if (rows.length === 0) {
      const newest = (await newestSeqs(db, [userId])).get(userId) ?? 0;
      if (newest <= after) return { last: null, full: false, bytes: null };
      rows = await rowsAfter(db, userId, after);
      if (rows.length === 0) return { last: newest, full: false, bytes: encodeEvents([{ id: newest, event: RESET_EVENT, data: {} }]) };
    }
    const first = rows[0]!.seq;
    const trimmed: Outgoing[] = first > after + 1 ? [{ id: first - 1, event: RESET_EVENT, data: {} }] : [];
    return {
      last: rows.at(-1)!.seq,
      full: rows.length === PAGE_ROWS,
      bytes: encodeEvents([...trimmed, ...(await render(db, userId, rows, registry))]),
    };
  });

const ephemeralRendering = new Map<string, Promise<Uint8Array | null>>();

/**
 * An ephemeral message as the person may see it now (its kind's render), encoded once for all
 * their streams woken in the same tick: null when they may not see it or its kind is unknown.
 */
const readEphemeral = (db: Db, userId: string, message: EphemeralMessage, registry: LiveRegistry): Promise<Uint8Array | null> =>
  sharedInTick(ephemeralRendering, `${userId}:${JSON.stringify(message)}`, async () => {
    const kind = registry.ephemeral.get(message.kind);
    const data = kind && (await kind.render(renderContext(db, userId), message));
    return kind && data !== undefined ? encoder.encode(unnumberedEvent(kind.event, data)) : null;
  });

/** An open stream as its heartbeat sees it. */
type Beating = {
  db: Db;
  userId: string;
  sessionId: string;
  send: (bytes: Uint8Array) => void;
  end: () => void;
  /** The person's newest seq now: a stream behind it reads its rows. */
  catchUp: (newest: number) => void;
};

/**
 * The heartbeat event, then one read of all the beating streams' sessions: a stream whose session
 * was revoked or expired (or whose read failed) ends; the client resumes, or signs in. And one read
 * of their people's newest seq: a stream behind it reads its rows, so a wake-up the listener never
 * heard (its connection silently dead) is late by a heartbeat at most, never lost until the resume.
 */
function beat(streams: Beating[]): void {
  for (const stream of streams) stream.send(HEARTBEAT);
  for (const db of new Set(streams.map((stream) => stream.db))) {
    const ofDb = streams.filter((stream) => stream.db === db);
    activeSessionUsers(db, [...new Set(ofDb.map((stream) => stream.sessionId))]).then(
      (live) => {
        for (const stream of ofDb) if (live.get(stream.sessionId) !== stream.userId) stream.end();
      },
      () => ofDb.forEach((stream) => stream.end()),
    );
    newestSeqs(db, [...new Set(ofDb.map((stream) => stream.userId))]).then(
      (newest) => ofDb.forEach((stream) => stream.catchUp(newest.get(stream.userId) ?? 0)),
      () => {},
    );
  }
}

/** One heartbeat per period for every stream of this instance (a test may ask for a shorter period). */
const heartbeats = new Map<number, Heartbeat<Beating>>();
const heartbeatOf = (periodMs: number) => {
  let found = heartbeats.get(periodMs);
  if (!found) heartbeats.set(periodMs, (found = createHeartbeat(periodMs, beat)));
  return found;
};

export const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  // No cache, and no proxy may compress or buffer it (README, Live updates).
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
};

/**
 * The caller's live events as server-sent events. Every event is one of their live_events rows,
 * its `seq` the event's id, so ids increase strictly and a resumed stream sends exactly the rows
 * after the id it names. A first open sends the counts now (at the newest id); a resume from an id
 * whose following rows are no longer kept (or that is not one of this person's) sends `reset`,
 * and the client reloads its lists. The stream sleeps until this instance's listener wakes it,
 * then reads its new rows; it ends itself after `lifetimeMs`, when the session ends, or on a
 * database error, and the client resumes from its last id. A person's stream past
 * STREAMS_PER_PERSON on this instance ends their oldest with `replaced` (lib/live/open-streams.ts).
 * An ephemeral kind's message naming the person is sent as it arrives, without an id, unless the
 * client is behind (a passing state is worth nothing late).
 */
export function liveStream(options: LiveStreamOptions): Response {
  const { db, userId, sessionId, resumeFrom, registry } = options;
  const listener = options.listener ?? liveListener();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let position = 0;
  let positioned = false;
  let closed = false;
  let pumping = false;
  let again = false;
  let room: (() => void) | undefined;
  let unsubscribe = () => {};
  let stopBeating = () => {};
  let leaveOpen = () => {};
  let leaveShutdown = () => {};
  let lifetime: ReturnType<typeof setTimeout> | undefined;

  const send = (bytes: Uint8Array) => {
    if (!closed) controller.enqueue(bytes);
  };
  const write = (text: string) => send(encoder.encode(text));

  function end(): void {
    if (closed) return;
    closed = true;
    clearTimeout(lifetime);
    stopBeating();
    leaveOpen();
    leaveShutdown();
    unsubscribe();
    room?.();
    options.signal?.removeEventListener("abort", end);
    try {
      controller.close();
    } catch {
      // Already closed or cancelled by the client.
    }
  }

  /** The session still live and still this person's: a revoked or expired one gets nothing more. */
  const allowed = async () => (await sharedInTick(sessionsChecking, sessionId, () => activeSessionUser(db, sessionId))) === userId;

  async function waitForRoom(): Promise<void> {
    while (!closed && (controller.desiredSize ?? 1) <= 0) await new Promise<void>((resolve) => (room = resolve));
  }

  /** Sends every row after `position`; a wake while it runs makes it look once more. */
  async function pump(): Promise<void> {
    // Before its position is known a stream sends nothing: begin() reads everything after it.
    if (!positioned) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    try {
      do {
        again = false;
        for (;;) {
          const page = await readPage(db, userId, position, registry);
          if (closed || page.last === null) break;
          if (!(await allowed())) return end();
          if (page.bytes) send(page.bytes);
          position = page.last;
          await waitForRoom();
          if (!page.full) break;
        }
      } while (again && !closed);
    } catch (error) {
      console.warn("[live] stream ended on a database error", describeError(error));
      end();
    } finally {
      pumping = false;
    }
  }

  /** Sends an ephemeral message if the person may see it now; a failure drops it, never the stream. */
  async function forward(message: EphemeralMessage): Promise<void> {
    if (closed || (controller.desiredSize ?? 1) <= 0) return;
    try {
      const bytes = await readEphemeral(db, userId, message, registry);
      if (bytes && !closed && (await allowed())) send(bytes);
    } catch (error) {
      console.warn("[live] an ephemeral event was dropped", describeError(error));
    }
  }

  async function begin(): Promise<void> {
    // Subscribed before the first read: a row committed after that read wakes this stream.
    unsubscribe = listener.subscribe(userId, (message) => void (message ? forward(message) : pump()));
    write(`retry: ${RECONNECT_DELAYS_MS[0]}\n\n`);
    const { last, oldest } = await historyBounds(db, userId);
    if (resumeFrom === null) {
      write(sseEvent(last, UNREAD, await unreadCounts(db, userId, registry)));
      position = last;
    } else if (resumeFrom === "unknown" || resumeFrom > last || (resumeFrom < last && (oldest ?? Infinity) > resumeFrom + 1)) {
      write(sseEvent(last, RESET_EVENT, {}));
      position = last;
    } else {
      position = resumeFrom;
    }
    positioned = true;
    await pump();
  }

  const stream = new ReadableStream<Uint8Array>(
    {
      start(streamController) {
        controller = streamController;
        if (options.pageUserId != null && options.pageUserId !== userId) {
          // Nothing of this person reaches a page rendered for another: it loads again instead.
          write(unnumberedEvent(ACCOUNT_EVENT, {}));
          closed = true;
          controller.close();
          return;
        }
        options.signal?.addEventListener("abort", end);
        lifetime = setTimeout(end, options.lifetimeMs);
        lifetime.unref?.();
        const catchUp = (newest: number) => {
          if (positioned && newest > position) void pump();
        };
        stopBeating = heartbeatOf(options.heartbeatMs ?? HEARTBEAT_MS).add({ db, userId, sessionId, send, end, catchUp });
        const displace = () => {
          write(replacedEvent());
          end();
        };
        leaveOpen = openStreams().add(userId, { displace }, options.perPerson ?? STREAMS_PER_PERSON);
        // A stopping server ends it as its lifetime would: the client resumes from its last id.
        leaveShutdown = onShutdown("streams", end);
        begin().catch((error: unknown) => {
          console.warn("[live] stream could not start", describeError(error));
          end();
        });
      },
      pull() {
        room?.();
        room = undefined;
      },
      cancel: end,
    },
    new ByteLengthQueuingStrategy({ highWaterMark: QUEUE_BYTES }),
  );
  return new Response(stream, { headers: SSE_HEADERS });
}
