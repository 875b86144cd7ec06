import { describe, expect, it } from "vitest";
import { Semaphore } from "@/lib/semaphore";

describe("Semaphore", () => {
  it("grants up to its size at once, then hands a released slot to the first waiter", async () => {
    const slots = new Semaphore(2);
    const first = await slots.acquire(10);
    const second = await slots.acquire(10);
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    const waiter = slots.acquire(1000);
    first!();
    expect(await waiter).not.toBeNull();
  });

  it("gives null to a caller that waited longer than it may, and keeps the count right", async () => {
    const slots = new Semaphore(1);
    const held = await slots.acquire(10);
    const started = Date.now();
    expect(await slots.acquire(50)).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    held!();
    held!(); // a second release of the same slot frees nothing more
    const again = await slots.acquire(10);
    expect(again).not.toBeNull();
    expect(await slots.acquire(10)).toBeNull();
  });
});
