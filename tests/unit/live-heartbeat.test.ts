import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createHeartbeat } from "@/lib/live/heartbeat";

/**
 * The live streams' shared heartbeat (lib/live/heartbeat.ts): each member beats once a period,
 * its first beat within a period of joining; members that join together beat together; a member
 * that left beats no more, and with no member left no timer runs. The clock is fake.
 */
describe("createHeartbeat", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("beats each member once a period, the first beat within a period of joining", () => {
    const beaten: string[][] = [];
    const heartbeat = createHeartbeat<string>(1_000, (members) => beaten.push(members));
    heartbeat.add("ana");
    vi.advanceTimersByTime(400);
    heartbeat.add("rui");
    heartbeat.add("leo");
    vi.advanceTimersByTime(600);
    expect(beaten).toEqual([["ana"]]);
    vi.advanceTimersByTime(400);
    expect(beaten).toEqual([["ana"], ["rui", "leo"]]);
    vi.advanceTimersByTime(3_000);
    expect(beaten.flat().filter((member) => member === "ana")).toHaveLength(4);
    expect(beaten.flat().filter((member) => member === "rui")).toHaveLength(4);
  });

  it("beats a member that left no more, and runs no timer once none is left", () => {
    const beaten: string[] = [];
    const heartbeat = createHeartbeat<string>(1_000, (members) => beaten.push(...members));
    const stopAna = heartbeat.add("ana");
    const stopRui = heartbeat.add("rui");
    vi.advanceTimersByTime(1_000);
    stopAna();
    vi.advanceTimersByTime(1_000);
    expect(beaten).toEqual(["ana", "rui", "rui"]);
    stopRui();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(5_000);
    expect(beaten).toEqual(["ana", "rui", "rui"]);
  });
});
