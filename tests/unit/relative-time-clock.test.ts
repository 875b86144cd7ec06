import { afterEach, describe, expect, it, vi } from "vitest";
import { CLOCK_MS, clockNow, subscribeClock } from "@/components/ui/useClock";

/**
 * A relative time ('5 minutes ago') reads again as the minutes go on, with no new data: a live key
 * keeps the value shown when a poll answers the same data (lib/live/client/use-live.ts), so a poll
 * no longer renders the labels again, and 'just now' stayed 'just now' for as long as the page was
 * open (the inbox's rows and requests, the bell, the dashboard's notifications).
 */

afterEach(() => {
  vi.useRealTimers();
});

describe("the relative times' clock", () => {
  it("tells every label shown each CLOCK_MS, with a new reading, from one timer", () => {
    vi.useFakeTimers({ now: new Date("2026-12-06T10:00:00Z") });
    const first = vi.fn();
    const second = vi.fn();
    const before = clockNow();
    const stopFirst = subscribeClock(first);
    const stopSecond = subscribeClock(second);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(CLOCK_MS);
    expect(first).toHaveBeenCalledOnce();
    expect(second).toHaveBeenCalledOnce();
    expect(clockNow()).not.toBe(before);
    stopFirst();
    stopSecond();
  });

  it("stops with the last label shown", () => {
    vi.useFakeTimers();
    const stop = subscribeClock(() => {});
    stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("reads the same between ticks (a stable snapshot for useSyncExternalStore)", () => {
    vi.useFakeTimers({ now: new Date("2026-12-06T10:00:00Z") });
    const reading = clockNow();
    vi.advanceTimersByTime(CLOCK_MS - 1);
    expect(clockNow()).toBe(reading);
  });
});
