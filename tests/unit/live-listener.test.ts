import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createListener, type ListenSource } from "@/lib/live/listener";

/**
 * An instance's one listener (lib/live/listener.ts) on a fake connection: it rests (closes its
 * connection) once no stream has been subscribed for `restMs`, and listens again with the next
 * stream, waking it so it reads what was published meanwhile. The clock is fake.
 */

/** A fake connection source counting what was opened and closed, each open answered at once. */
function fakeSource() {
  const counts = { opened: 0, closed: 0 };
  let deliver: ((payload: string) => void) | undefined;
  const source: ListenSource = async (onPayload) => {
    counts.opened++;
    deliver = onPayload;
    return async () => void counts.closed++;
  };
  return { source, counts, deliver: (payload: string) => deliver?.(payload) };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("the listener's rest", () => {
  it("closes its connection once no stream has been subscribed for restMs, and not while one is", async () => {
    const { source, counts } = fakeSource();
    const listener = createListener(source, { restMs: 1_000 });
    await listener.ready();
    const unsubscribe = listener.subscribe("ana", () => {});
    await vi.advanceTimersByTimeAsync(5_000);
    expect(counts).toEqual({ opened: 1, closed: 0 });
    unsubscribe();
    await vi.advanceTimersByTimeAsync(999);
    expect(counts.closed).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(counts).toEqual({ opened: 1, closed: 1 });
    await listener.close();
  });

  it("listens again with the next stream and wakes it, so it reads what was published while it rested", async () => {
    const { source, counts, deliver } = fakeSource();
    const listener = createListener(source, { restMs: 1_000 });
    await listener.ready();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(counts.closed).toBe(1);
    const woken: string[] = [];
    listener.subscribe("ana", (message) => woken.push(message ? "message" : "rows"));
    await vi.advanceTimersByTimeAsync(0);
    expect(counts).toEqual({ opened: 2, closed: 1 });
    expect(woken).toEqual(["rows"]);
    deliver("ana");
    expect(woken).toEqual(["rows", "rows"]);
    await listener.close();
    expect(counts.closed).toBe(2);
  });

  it("a new stream within restMs keeps the connection it has", async () => {
    const { source, counts } = fakeSource();
    const listener = createListener(source, { restMs: 1_000 });
    await listener.ready();
    listener.subscribe("ana", () => {})();
    await vi.advanceTimersByTimeAsync(500);
    listener.subscribe("rui", () => {});
    await vi.advanceTimersByTimeAsync(5_000);
    expect(counts).toEqual({ opened: 1, closed: 0 });
    await listener.close();
  });

  it("never rests without restMs (the embedded database's listen holds no connection)", async () => {
    const { source, counts } = fakeSource();
    const listener = createListener(source);
    await listener.ready();
    listener.subscribe("ana", () => {})();
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(counts).toEqual({ opened: 1, closed: 0 });
    await listener.close();
  });

  it("keeps only the newest connection when a rest and a new stream overlap an open still under way", async () => {
    const counts = { opened: 0, closed: 0 };
    const pending: (() => void)[] = [];
    // Each open resolves when the test says: the first is still under way as the rest comes.
    const source: ListenSource = () =>
      new Promise((resolve) => {
        counts.opened++;
        pending.push(() => resolve(async () => void counts.closed++));
      });
    const listener = createListener(source, { restMs: 1_000 });
    await vi.advanceTimersByTimeAsync(1_000);
    const woken: string[] = [];
    listener.subscribe("ana", () => woken.push("rows"));
    expect(counts.opened).toBe(2);
    pending[0]!();
    await vi.advanceTimersByTimeAsync(0);
    expect(counts.closed).toBe(1);
    pending[1]!();
    await vi.advanceTimersByTimeAsync(0);
    expect(woken).toEqual(["rows"]);
    await listener.close();
    // The kept one closes with the listener: neither connection is left open.
    expect(counts).toEqual({ opened: 2, closed: 2 });
  });
});
