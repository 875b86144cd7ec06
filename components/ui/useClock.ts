"use client";

import { useSyncExternalStore } from "react";

/**
 * The clock the relative times ('5 minutes ago') read by: they render again as it ticks, not only
 * when their data changes (a live key keeps the value shown when a load answers the same data, so
 * a poll does not render them again). One timer for every label shown, stopped with the last.
 */
export const CLOCK_MS = 30_000;

const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

/** The clock's reading: the tick it is in (stable between ticks, as useSyncExternalStore asks). */
export const clockNow = () => Math.floor(Date.now() / CLOCK_MS);

export function subscribeClock(listener: () => void): () => void {
  listeners.add(listener);
  timer ??= setInterval(() => {
    for (const each of listeners) each();
  }, CLOCK_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size > 0) return;
    clearInterval(timer);
    timer = undefined;
  };
}

/**
 * Renders the caller again as the clock ticks. Its reading is 0 on the server and at hydration (no
 * mismatch), the tick after: what only the browser can say right (its time zone) waits for it.
 */
export function useClock(): number {
  return useSyncExternalStore(subscribeClock, clockNow, () => 0);
}
