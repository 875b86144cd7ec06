import { describe, expect, it, vi } from "vitest";
import { answerPushPrompt } from "@/components/notifications/PushPrompt";
import { ApiError } from "@/lib/transport/client";

/**
 * The one gentle prompt answered (components/notifications/PushPrompt.tsx): an answer is
 * remembered and the prompt goes; 'Turn on notifications' that failed is no answer, and says why.
 */
describe("the push prompt's answer", () => {
  it("turns notifications on, then is remembered", async () => {
    const turnOn = vi.fn(async () => "on");
    const remember = vi.fn(async () => ({}));
    await expect(answerPushPrompt(turnOn, remember)).resolves.toBeNull();
    expect(turnOn).toHaveBeenCalledOnce();
    expect(remember).toHaveBeenCalledOnce();
  });

  it("'Not now' is remembered without asking the browser", async () => {
    const remember = vi.fn(async () => ({}));
    await expect(answerPushPrompt(null, remember)).resolves.toBeNull();
    expect(remember).toHaveBeenCalledOnce();
  });

  // Gone, the prompt read as done while the server had stored nothing.
  it("says why turning on failed, and is not remembered", async () => {
    const remember = vi.fn(async () => ({}));
    const refused = () => Promise.reject(new ApiError(429, "RATE_LIMITED", "Too many requests. Please slow down."));
    await expect(answerPushPrompt(refused, remember)).resolves.toBe("Too many requests. Please slow down.");
    const broken = () => Promise.reject(new DOMException("Registration failed - push service error", "AbortError"));
    await expect(answerPushPrompt(broken, remember)).resolves.toBe("Could not turn on notifications. Please try again.");
    expect(remember).not.toHaveBeenCalled();
  });

  it("goes even when the answer could not be remembered (it is offered again another time)", async () => {
    const remember = () => Promise.reject(new ApiError(0, "NETWORK_ERROR", "Network error"));
    await expect(answerPushPrompt(null, remember)).resolves.toBeNull();
  });
});
