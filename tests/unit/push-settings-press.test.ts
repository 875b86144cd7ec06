import { describe, expect, it, vi } from "vitest";
import { settled, turnOnPressed } from "@/components/settings/PushSettings";
import { DEVICE_STATE_TEXT } from "@/lib/notifications/push/client";
import { ApiError } from "@/lib/transport/client";

/**
 * A press in 'Notifications on this device' (turn on or off, previews, 'Remove'): what it came to,
 * and the device list read again whatever that was, so its rows are what the server holds.
 */
describe("a push settings press", () => {
  it("says it is done and reads the devices again", async () => {
    const reload = vi.fn();
    await expect(settled(async () => {}, "Phone no longer gets notifications.", reload)).resolves.toEqual({
      tone: "success",
      text: "Phone no longer gets notifications.",
    });
    expect(reload).toHaveBeenCalledOnce();
  });

  // 'Remove' on a device already removed on another one: the error stays, the stale row goes.
  it("says why it failed and still reads the devices again", async () => {
    const reload = vi.fn();
    const gone = () => Promise.reject(new ApiError(404, "NOT_FOUND", "Device not found"));
    await expect(settled(gone, "Phone no longer gets notifications.", reload)).resolves.toEqual({
      tone: "error",
      text: "Device not found",
    });
    expect(reload).toHaveBeenCalledOnce();
  });

  it("says only that it did not work when the failure has no message for people", async () => {
    const reload = vi.fn();
    const broken = () => Promise.reject(new TypeError("registration.pushManager is undefined"));
    await expect(settled(broken, "Notifications are on for this device.", reload)).resolves.toEqual({
      tone: "error",
      text: "That did not work. Please try again.",
    });
    expect(reload).toHaveBeenCalledOnce();
  });

  // The browser's permission blocked, or no push in this browser: the state's own words, not 'try again'.
  it("'Turn on' the browser refused says why in the state's words", async () => {
    for (const now of ["denied", "unsupported", "off"] as const) {
      await expect(settled(() => turnOnPressed(async () => now), "Notifications are on for this device.", vi.fn())).resolves.toEqual({
        tone: "error",
        text: DEVICE_STATE_TEXT[now],
      });
    }
    await expect(settled(() => turnOnPressed(async () => "on"), "Notifications are on for this device.", vi.fn())).resolves.toEqual({
      tone: "success",
      text: "Notifications are on for this device.",
    });
    const refused = () => Promise.reject(new ApiError(429, "RATE_LIMITED", "Too many requests. Please slow down."));
    await expect(settled(() => turnOnPressed(refused), "Notifications are on for this device.", vi.fn())).resolves.toEqual({
      tone: "error",
      text: "Too many requests. Please slow down.",
    });
  });
});
