/**
 * The live stream's rules, shared by the server (lib/live/sse.ts) and the browser
 * (lib/live/client/stream.ts): pure, no I/O.
 */

/**
 * Spec section 9 (realtime): a heartbeat this often keeps proxies from closing an idle stream. It
 * is an event (HEARTBEAT_EVENT, no id), not a comment, so the browser sees it: a stream silent for
 * SILENT_MS is dead (a laptop's sleep, a network switched under it) and is opened again, where
 * the connection itself may take minutes to fail.
 */
export const HEARTBEAT_MS = 25_000;
export const HEARTBEAT_EVENT = "heartbeat";
/** A stream beats within a period of opening, then once a period: three periods of silence is none. */
export const SILENT_MS = 3 * HEARTBEAT_MS;

/** Spec section 9 (realtime): the browser reconnects after these delays, then every last one. */
export const RECONNECT_DELAYS_MS = [1_000, 2_000, 5_000, 10_000] as const;

/** The wait before reconnect attempt `attempt` (0 for the first try after a failure). */
export const reconnectDelay = (attempt: number): number => RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)]!;

/** A tab hidden this long closes its stream; it resumes from its last id when shown again. */
export const HIDDEN_PAUSE_MS = 60_000;

/** The foundation's own stream events: the person's counts now, and 'what you missed is gone, load again'. */
export const UNREAD_EVENT = "unread";
export const RESET_EVENT = "reset";

/**
 * How many streams one person may hold open on one instance (one a browser: its tabs share one);
 * a newer one ends the oldest with REPLACED_EVENT.
 */
export const STREAMS_PER_PERSON = 10;

/**
 * The stream's last event when a newer stream of the same person took its place: no id (the
 * position stays), data `{ retryMs }`; that browser reconnects after `retryMs` and polls meanwhile.
 */
export const REPLACED_EVENT = "replaced";
export const REPLACED_RETRY_MS = 60_000;

/**
 * The stream's only event when the page that opened it was rendered for another person than the
 * session's now (someone else signed in in another tab of the browser): no id, no data; the page
 * loads again as the session's person sees it, and shows nothing of one account live in the other.
 */
export const ACCOUNT_EVENT = "account";

/** An event without an id (REPLACED_EVENT, an ephemeral kind's): the client's resume position stays where it was. */
export const unnumberedEvent = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** The REPLACED_EVENT as sent. */
export const replacedEvent = (retryMs: number = REPLACED_RETRY_MS): string => unnumberedEvent(REPLACED_EVENT, { retryMs });

/** An event id is a person's live_events `seq`: a positive integer well inside a double's exact range. */
const EVENT_ID_MAX_LENGTH = 15;

/**
 * The position a resumed stream names (`Last-Event-ID`, or `lastEventId` in the URL where the
 * browser reconnects by hand): null when it names none, "unknown" when it is not one of ours
 * (the client then reloads its lists, as after a gap older than the kept history).
 */
export function parseEventId(raw: string | null | undefined): number | null | "unknown" {
  if (raw === null || raw === undefined || raw === "") return null;
  // Length before pattern: a long header is refused without being scanned.
  if (raw.length > EVENT_ID_MAX_LENGTH || !/^\d+$/.test(raw)) return "unknown";
  return Number(raw);
}

/**
 * How long a stream stays open: a margin before the platform's maximum duration (`maxSeconds`),
 * so it ends itself cleanly and the browser resumes, rather than being cut mid-event.
 */
export const streamLifetimeMs = (maxSeconds: number): number => Math.max(1_000, maxSeconds * 1_000 - Math.min(10_000, maxSeconds * 100));

/** One server-sent event in the wire format (data on one line: it is JSON). */
export const sseEvent = (id: number, event: string, data: unknown): string =>
  `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
