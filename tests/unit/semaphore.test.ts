import { describe, expect, it } from "vitest";
import { BUSY_MESSAGE, Semaphore, processSlots } from "@/lib/semaphore";

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

describe("processSlots", () => {
  it("shares one set of slots per key, refuses work with 503 when none frees in time, and frees a slot whose work failed", async () => {
    const inSlot = processSlots("test.processSlots", 1, 20);
    const sameSlots = processSlots("test.processSlots", 1, 20);
    let finish!: () => void;
    const holding = inSlot(() => new Promise<void>((resolve) => (finish = resolve)));
    await expect(sameSlots(async () => "late")).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE", message: BUSY_MESSAGE });
    finish();
    await holding;
    await expect(inSlot(async () => Promise.reject(new Error("broken")))).rejects.toThrow("broken");
    await expect(sameSlots(async () => "next")).resolves.toBe("next");
  });
});
