import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { forgetThisDevice } from "@/lib/pwa/client";

/**
 * Signing out (or deleting the account) forgets what this device holds (lib/pwa/client.ts), in a
 * stand-in browser: the app icon's count and the notifications the worker showed go with the rest,
 * so a signed-out device shows nobody's count.
 */

/** A stand-in for the browser's localStorage or sessionStorage. */
function storage(entries: Record<string, string> = {}) {
  const held = new Map(Object.entries(entries));
  return {
    getItem: (key: string) => held.get(key) ?? null,
    setItem: (key: string, value: string) => void held.set(key, value),
    clear: () => held.clear(),
    keys: () => [...held.keys()],
  };
}

const shown = () => ({ close: vi.fn() });

let browser: {
  local: ReturnType<typeof storage>;
  notifications: ReturnType<typeof shown>[];
  unsubscribe: ReturnType<typeof vi.fn>;
  clearAppBadge: ReturnType<typeof vi.fn>;
  deleteCache: ReturnType<typeof vi.fn>;
};

beforeEach(() => {
  const notifications = [shown(), shown()];
  browser = {
    local: storage({ theme: "dark", "push-device-owner": "ana", draft: "their words" }),
    notifications,
    unsubscribe: vi.fn(async () => true),
    clearAppBadge: vi.fn(async () => undefined),
    deleteCache: vi.fn(async () => true),
  };
  const registration = {
    pushManager: { getSubscription: async () => ({ unsubscribe: browser.unsubscribe }) },
    getNotifications: async () => notifications,
  };
  vi.stubGlobal("window", { caches: {} });
  vi.stubGlobal("localStorage", browser.local);
  vi.stubGlobal("sessionStorage", storage({ form: "saved" }));
  vi.stubGlobal("navigator", { serviceWorker: { getRegistration: async () => registration }, clearAppBadge: browser.clearAppBadge });
  vi.stubGlobal("caches", { keys: async () => ["static-1"], delete: browser.deleteCache });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("forgetting this device at sign-out", () => {
  it("clears the app icon's count and closes the notifications the worker showed, with the storage, subscription and caches", async () => {
    await forgetThisDevice();
    expect(browser.clearAppBadge).toHaveBeenCalledOnce();
    for (const notification of browser.notifications) expect(notification.close).toHaveBeenCalledOnce();
    expect(browser.local.keys()).toEqual(["theme"]);
    expect(browser.unsubscribe).toHaveBeenCalledOnce();
    expect(browser.deleteCache).toHaveBeenCalledWith("static-1");
  });

  it("goes on where the browser has no badge and refuses it, or has no worker", async () => {
    browser.clearAppBadge.mockRejectedValue(new DOMException("not installed", "NotAllowedError"));
    await expect(forgetThisDevice()).resolves.toBeUndefined();
    expect(browser.deleteCache).toHaveBeenCalled();
    vi.stubGlobal("navigator", {});
    await expect(forgetThisDevice()).resolves.toBeUndefined();
  });
});

describe("forgetting this device where the worker cannot list its notifications", () => {
  it("still clears the badge and the caches where the worker cannot list what it showed", async () => {
    const registration = { pushManager: { getSubscription: async () => null } };
    vi.stubGlobal("navigator", { serviceWorker: { getRegistration: async () => registration }, clearAppBadge: browser.clearAppBadge });
    await expect(forgetThisDevice()).resolves.toBeUndefined();
    expect(browser.clearAppBadge).toHaveBeenCalledOnce();
    expect(browser.deleteCache).toHaveBeenCalledWith("static-1");
  });
});
