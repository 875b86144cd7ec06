import "server-only";
import { hash, verify } from "@node-rs/argon2";
import { AppError } from "@/lib/errors";
import { Semaphore } from "@/lib/semaphore";

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

/**
 * Sign-ins checking a password at once, per process. Each argon2 run takes 19 MiB and a thread
 * of libuv's pool (4 by default) for tens of milliseconds; a flood of sign-ins must leave cores,
 * threads and database connections to the rest of the API.
 */
export const PASSWORD_SLOTS = 3;
/** How long an excess sign-in waits for a slot before it is refused with 503. */
export const PASSWORD_SLOT_WAIT_MS = 1500;
export const BUSY_MESSAGE = "The service is temporarily unavailable. Please try again later.";

// One per process, whichever bundle (route handler, server action) loads this module.
const slots = ((globalThis as { __passwordSlots?: Semaphore }).__passwordSlots ??= new Semaphore(PASSWORD_SLOTS));

/** Runs a sign-in's password work in one of the slots, or refuses it with 503 and Retry-After. */
export async function withPasswordSlot<T>(run: () => Promise<T>): Promise<T> {
  const release = await slots.acquire(PASSWORD_SLOT_WAIT_MS);
  if (!release) throw new AppError("SERVICE_UNAVAILABLE", BUSY_MESSAGE, { retryAfterSeconds: 1 });
  try {
    return await run();
  } finally {
    release();
  }
}
