import "server-only";
import type { Sql } from "postgres";
import { AppError } from "@/lib/errors";
import { within } from "@/lib/timeout";
import { hasErrorCode } from "./error-codes";

/**
 * A postgres.js pool that survives a database restart without an app restart. postgres.js 3.4.9
 * (the newest release) can keep a connection that closed during the server's start-up
 * reconnecting with no delay and no time limit (github.com/porsager/postgres/issues/1193, unreleased pull/1214),
 * so one pooled connection hangs requests long after the database is back. Instead of trusting
 * the pool to heal, any closed connection triggers a probe on a connection of its own; when the
 * database does not answer, the pool is ended at once (what waited on it fails now, with 503,
 * instead of after the outage), requests fail fast while it is down, and a fresh pool replaces it
 * as soon as a probe succeeds.
 */
const PROBE_TIMEOUT_MS = 1_000;
const PROBE_INTERVAL_MS = 250;
/** What a client is told to wait: a restart usually takes a few seconds. */
export const RETRY_AFTER_SECONDS = 5;

/** The database is known to be down: the request is refused before it does anything (safe to send again). */
export const databaseUnavailable = () =>
  new AppError("SERVICE_UNAVAILABLE", "The service is briefly unavailable. Please try again in a few seconds.", {
    retryAfterSeconds: RETRY_AFTER_SECONDS,
  });

/**
 * The database went away while the request ran (isDatabaseUnavailable): a write may have been
 * committed before the connection broke (a reset during COMMIT leaves it unknown), or the request
 * may have done nothing at all. Answered as an outage too, but never as one refused before it
 * started: a client must not send the same write again by itself.
 */
export const databaseInterrupted = () =>
  new AppError(
    "OUTCOME_UNKNOWN",
    "The service was interrupted while this was under way. If you were saving something, check whether it was saved before trying again.",
    { retryAfterSeconds: RETRY_AFTER_SECONDS },
  );

type Connect = (onclose: () => void) => Sql;

export type SupervisedPool = {
  /** The current pool; throws SERVICE_UNAVAILABLE while the database is known to be down. */
  current(): Sql;
  /** Whether the database answers a round trip within `timeoutMs`, on a connection of its own. */
  ping(timeoutMs?: number): Promise<boolean>;
  end(): Promise<void>;
};

export function supervisedPool(connect: Connect, probe: () => Sql): SupervisedPool {
  let down = false;
  let checking = false;
  let ended = false;
  let sql = connect(() => void check());

  async function ping(timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
    const single = probe();
    try {
      return await within(
        single`select 1`.then(
          () => true,
          () => false,
        ),
        timeoutMs,
        false,
      );
    } finally {
      void single.end({ timeout: 0 }).catch(() => {});
    }
  }

  /** After any closed connection: a routine close (idle, lifetime) passes the probe and changes nothing. */
  async function check() {
    if (checking || ended) return;
    checking = true;
    try {
      if (await ping()) return;
      down = true;
      void sql.end({ timeout: 0 }).catch(() => {});
      while (!ended && !(await ping())) await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
      if (!ended) sql = connect(() => void check());
      down = false;
    } finally {
      checking = false;
    }
  }

  return {
    current() {
      if (down) throw databaseUnavailable();
      return sql;
    },
    ping,
    async end() {
      ended = true;
      await sql.end({ timeout: 5 });
    },
  };
}

/**
 * Connection-level failures (refused, reset, closed, timed out, server shutting down or starting):
 * 503 OUTCOME_UNKNOWN (databaseInterrupted), not 500. Whatever the code, the request may have
 * committed a write before it (a statement after the commit failing, or the COMMIT itself).
 */
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "53300", // too_many_connections
]);

/** Whether an error (or what caused it: Drizzle wraps driver errors) says the database cannot be reached. */
export const isDatabaseUnavailable = (error: unknown): boolean =>
  hasErrorCode(error, (code) => UNAVAILABLE_CODES.has(code) || code.startsWith("08"));
