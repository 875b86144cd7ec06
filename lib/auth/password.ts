import "server-only";
import { hash, verify } from "@node-rs/argon2";
import type { Db } from "@/db/client";
import { checkLimit, clearHits, recordHit, withLimitLock, type Limit } from "@/lib/rate-limit";
import { processSlots } from "@/lib/semaphore";
import { PASSWORD_SLOTS } from "@/lib/thread-pool";

// argon2id with OWASP's recommended memory cost (19 MiB, 2 passes, 1 lane).
const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Checked against when the e-mail is unknown, so a miss costs the same time as a wrong password.
let dummyHash: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword("not-a-real-password-used-for-timing-only");
  await verifyPassword(await dummyHash, password);
}

/** How long an excess sign-in waits for a slot before it is refused with 503. */
export const PASSWORD_SLOT_WAIT_MS = 1500;
/** Runs a sign-in's password work in one of the slots, or refuses it with 503 and Retry-After. */
export const withPasswordSlot = processSlots("app.passwordSlots", PASSWORD_SLOTS, PASSWORD_SLOT_WAIT_MS);

/** A count of failed password checks: a limit and the subject it counts (an account at an address, a person). */
export type FailureCount = readonly [Limit, string];

export type CountedCheck<T> = { kind: "locked"; retryAfterSeconds: number } | { kind: "wrong" } | { kind: "right"; value: T };

/**
 * A password check that failures are counted against, for sign-in and the settings' re-check alike.
 * `check` verifies the password (its value when right, null when wrong). It runs in a slot, taken
 * first so queued checks hold no database connection, and under the lock of the last count: the
 * checks that share it run one at a time, so a burst of parallel guesses cannot all be checked
 * before the first failure is counted, and parallel right ones are never counted as failures.
 * Nothing is checked while any count is at its limit; a failure adds to every count; a success
 * clears the first only (the others also count guesses made elsewhere).
 */
export async function countedPasswordCheck<T>(
  db: Db,
  counts: readonly [FailureCount, ...FailureCount[]],
  check: (tx: Db) => Promise<T | null>,
): Promise<CountedCheck<T>> {
  const [lockLimit, lockSubject] = counts.at(-1)!;
  return withPasswordSlot(() =>
    withLimitLock(db, lockLimit, lockSubject, async (tx): Promise<CountedCheck<T>> => {
      for (const [limit, subject] of counts) {
        const state = await checkLimit(tx, limit, subject);
        if (!state.allowed) return { kind: "locked", retryAfterSeconds: state.retryAfterSeconds };
      }
      const value = await check(tx);
      if (value === null) {
        for (const [limit, subject] of counts) await recordHit(tx, limit, subject);
        return { kind: "wrong" };
      }
      await clearHits(tx, ...counts[0]);
      return { kind: "right", value };
    }),
  );
}
