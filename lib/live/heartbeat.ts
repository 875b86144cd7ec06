/** How many slots a heartbeat period is cut into: each tick beats the members of one slot. */
const HEARTBEAT_SLOTS = 25;

export type Heartbeat<T> = {
  /** Beats `member` about every period from now on (its first beat within one period); answers the stop. */
  add(member: T): () => void;
};

/**
 * One timer for every member beating at `periodMs` (the open live streams): each tick beats one
 * slot's members together, so each beat costs one call for many (one session read), and streams
 * opened together still beat spread over the period. With no member, no timer runs; between
 * ticks nothing runs at all.
 */
export function createHeartbeat<T>(periodMs: number, beat: (members: T[]) => void): Heartbeat<T> {
  const slots = Array.from({ length: HEARTBEAT_SLOTS }, () => new Set<T>());
  const tickMs = periodMs / HEARTBEAT_SLOTS;
  let cursor = 0;
  let members = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  let started = 0;
  let ticks = 0;

  // By the clock, not by counting the timer's calls: a busy event loop delays a tick, and the
  // next one beats the slots it missed, so a period never stretches (a proxy would cut the stream).
  const tick = () => {
    const due = Math.floor((performance.now() - started) / tickMs);
    ticks = Math.max(ticks, due - HEARTBEAT_SLOTS);
    while (ticks < due) {
      ticks++;
      cursor = (cursor + 1) % HEARTBEAT_SLOTS;
      const slot = slots[cursor]!;
      if (slot.size) beat([...slot]);
    }
  };

  return {
    add(member) {
      // The slot beaten last: its next beat is a whole period away, at most one tick less.
      const slot = slots[cursor]!;
      slot.add(member);
      if (members++ === 0) {
        started = performance.now();
        ticks = 0;
        timer = setInterval(tick, tickMs);
        timer.unref?.();
      }
      return () => {
        if (slot.delete(member) && --members === 0) clearInterval(timer);
      };
    },
  };
}
