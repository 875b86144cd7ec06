import "server-only";
import { is, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { PgTransaction, type PgTransactionConfig } from "drizzle-orm/pg-core";
import type { Db } from "./client";
import { hasErrorCode } from "./error-codes";
import { resultRows } from "./result-rows";

/**
 * The one way the app opens a transaction. Two things no caller should have to remember:
 * - Work registered with `beforeCommit` runs once, at the end, just before the commit: a writer
 *   that must lock rows in a fixed order (the live events' sequences, lib/live/publish.ts) gathers
 *   everything the transaction publishes and takes all its locks in one sorted statement, last.
 * - A transaction that still fails with a deadlock (40P01) or a serialization failure (40001) is
 *   run again, whole, a few times: Postgres rolled it back, so nothing of it stands.
 * A transaction opened inside another (a domain function handed a transaction) joins it, so the
 * outer one's end is the only end.
 */

/** Postgres's codes for "roll back and try again": serialization_failure, deadlock_detected. */
const RETRYABLE = new Set(["40001", "40P01"]);
/** Attempts in all; each waits a little longer, with jitter, so two colliding writers part ways. */
const ATTEMPTS = 4;
const BACKOFF_MS = 15;

type Hook = { state: unknown; flush: (tx: Db, state: unknown) => Promise<void> };
/** The hooks of each open transaction this module opened; absent once its hooks ran. */
const open = new WeakMap<Db, Map<symbol, Hook>>();

const isRetryable = (error: unknown) => hasErrorCode(error, (code) => RETRYABLE.has(code));

const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, BACKOFF_MS * attempt * (0.5 + Math.random())));

/** Runs `work` in a transaction (or in the one `db` already is), with the rules above. */
export async function transaction<T>(db: Db, work: (tx: Db) => Promise<T>, config?: PgTransactionConfig): Promise<T> {
  if (open.has(db)) return work(db);
  if (is(db, PgTransaction)) throw new Error("A transaction not opened by db/transaction.ts: open it with transaction()");
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(async (tx) => {
        const hooks = new Map<symbol, Hook>();
        open.set(tx, hooks);
        const result = await work(tx);
        for (const hook of hooks.values()) await hook.flush(tx, hook.state);
        open.delete(tx);
        return result;
      }, config);
    } catch (error) {
      if (attempt >= ATTEMPTS || !isRetryable(error)) throw error;
      await pause(attempt);
    }
  }
}

/**
 * The state `key` gathers in this transaction (made by `init` on first use), flushed by `flush`
 * just before the commit. Outside a transaction opened by `transaction()` there is no end to wait
 * for: that is a programming error, thrown at once.
 */
export function beforeCommit<S>(tx: Db, key: symbol, init: () => S, flush: (tx: Db, state: S) => Promise<void>): S {
  const hooks = open.get(tx);
  if (!hooks) throw new Error("beforeCommit needs a transaction opened by transaction() that has not ended");
  let hook = hooks.get(key);
  if (!hook) {
    hook = { state: init(), flush: flush as Hook["flush"] };
    hooks.set(key, hook);
  }
  return hook.state as S;
}

/**
 * One writer at a time per `key`, on any instance, until this transaction ends (a
 * transaction-scoped advisory lock): for a rule that reads, then writes what the read decided (a
 * count against a limit, a duplicate check, one open request per pair).
 */
export async function oneAtATime(tx: Db, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
}

/**
 * Runs `work` in a transaction unless it is under way for `key` on any instance now (a
 * transaction-scoped advisory lock tried, never waited on): for work done once however many
 * asked for it at the same time, such as a search after a response. Null when it was under way.
 */
export async function unlessUnderWay<T>(db: Db, key: string, work: (tx: Db) => Promise<T>): Promise<T | null> {
  return transaction(db, async (tx) => {
    const [claim] = resultRows<{ taken: boolean }>(
      await tx.execute(sql`select pg_try_advisory_xact_lock(hashtextextended(${key}, 0)) as taken`),
    );
    return claim?.taken ? work(tx) : null;
  });
}

/**
 * How long a write sent again (a double click, two tabs, both partners at once, a retry after a
 * lost answer) is taken for the one already written: every rule looking for 'the same, just sent'
 * (under `oneAtATime` or a row lock) reads it.
 */
export const SENT_AGAIN_SECONDS = 60;

/** SQL: a creation time within SENT_AGAIN_SECONDS before this transaction began. */
export const sentJustNow = (createdAt: SQLWrapper): SQL => sql`${createdAt} > now() - make_interval(secs => ${SENT_AGAIN_SECONDS})`;
