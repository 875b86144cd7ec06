import { describe, expect, it, vi } from "vitest";
import { answerPushPrompt } from "@/components/notifications/PushPrompt";
import { DEVICE_STATE_TEXT } from "@/lib/notifications/push/client";
import { ApiError } from "@/lib/transport/client";

/**
 * The one gentle prompt answered (components/notifications/PushPrompt.tsx): an answer is
 * remembered and the prompt goes; 'Turn on notifications' that failed is no answer, and says why.
 */
describe("the push prompt's answer", () => {
  it("turns notifications on, then is remembered", async () => {
    const turnOn = vi.fn(async () => "on" as const);
    const remember = vi.fn(async () => ({}));
    await expect(answerPushPrompt(turnOn, remember)).resolves.toEqual({ answered: true, note: null });
    expect(turnOn).toHaveBeenCalledOnce();
    expect(remember).toHaveBeenCalledOnce();
  });

  it("'Not now' is remembered without asking the browser", async () => {
    const remember = vi.fn(async () => ({}));
    await expect(answerPushPrompt(null, remember)).resolves.toEqual({ answered: true, note: null });
    expect(remember).toHaveBeenCalledOnce();
  });

  // Gone, the prompt read as done while the server had stored nothing.
  it("says why turning on failed, and is not remembered", async () => {
    const remember = vi.fn(async () => ({}));
    const refused = () => Promise.reject(new ApiError(429, "RATE_LIMITED", "Too many requests. Please slow down."));
    await expect(answerPushPrompt(refused, remember)).resolves.toEqual({ answered: false, note: "Too many requests. Please slow down." });
    const broken = () => Promise.reject(new DOMException("Registration failed - push service error", "AbortError"));
    await expect(answerPushPrompt(broken, remember)).resolves.toEqual({
      answered: false,
      note: "Could not turn on notifications. Please try again.",
    });
    expect(remember).not.toHaveBeenCalled();
  });

  // The service worker's registration failed: nothing was turned on, and the prompt stays.
  it("says the browser cannot show notifications when turning on found no push, and is not remembered", async () => {
    const remember = vi.fn(async () => ({}));
    await expect(answerPushPrompt(async () => "unsupported", remember)).resolves.toEqual({
      answered: false,
      note: DEVICE_STATE_TEXT.unsupported,
    });
    expect(remember).not.toHaveBeenCalled();
  });

  // 'Block' in the browser's own question is an answer: remembered, with where to undo it.
  it("is remembered when the browser's question was answered 'Block', and says notifications are blocked", async () => {
    const remember = vi.fn(async () => ({}));
    await expect(answerPushPrompt(async () => "denied", remember)).resolves.toEqual({ answered: true, note: DEVICE_STATE_TEXT.denied });
    expect(remember).toHaveBeenCalledOnce();
  });

  it("goes even when the answer could not be remembered (it is offered again another time)", async () => {
    const remember = () => Promise.reject(new ApiError(0, "NETWORK_ERROR", "Network error"));
    await expect(answerPushPrompt(null, remember)).resolves.toEqual({ answered: true, note: null });
  });
});
