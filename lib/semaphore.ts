import { AppError } from "@/lib/errors";

/**
 * A fixed number of slots for work that must not all run at once. A caller waits for a slot in
 * arrival order, at most `maxWaitMs`; then it gets null and should refuse rather than queue on.
 */
export class Semaphore {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.free = size;
  }

  /** Resolves to the slot's release function, or null when none freed up in time. */
  acquire(maxWaitMs: number): Promise<(() => void) | null> {
    if (this.free > 0) {
      this.free--;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve) => {
      const grant = () => {
        clearTimeout(timer);
        resolve(this.releaser());
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(grant), 1);
        resolve(null);
      }, maxWaitMs);
      this.waiting.push(grant);
    });
  }

  /** A release that works once: the slot goes straight to the next waiter, if any. */
  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}

/** What work refused a slot is told, with 503 and Retry-After. */
export const BUSY_MESSAGE = "The service is temporarily unavailable. Please try again later.";

/** The refusal of work the server is too busy for: 503 with the busy text and Retry-After. */
export const serverBusy = () => new AppError("SERVICE_UNAVAILABLE", BUSY_MESSAGE, { retryAfterSeconds: 1 });

/**
 * Slots for one kind of work, shared by every bundle of the process that loads the module (route
 * handlers and server actions each have their own copy): `key` names them on globalThis. The
 * returned runner does the work in a slot, or refuses it with 503 when none frees in `maxWaitMs`.
 */
export function processSlots(key: string, size: number, maxWaitMs: number) {
  const shared = globalThis as { [slotsKey: symbol]: Semaphore | undefined };
  const slots = (shared[Symbol.for(key)] ??= new Semaphore(size));
  return async function inSlot<T>(work: () => Promise<T>): Promise<T> {
    const release = await slots.acquire(maxWaitMs);
    if (!release) throw serverBusy();
    try {
      return await work();
    } finally {
      release();
    }
  };
}
