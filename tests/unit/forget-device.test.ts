import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { appBadgeOfPage, forgetThisDevice, signOutThisDevice } from "@/lib/pwa/client";

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

describe("forgetting this device where the browser refuses its caches", () => {
  it("still finishes when listing the caches fails, and deletes the others when one delete fails", async () => {
    vi.stubGlobal("caches", { keys: () => Promise.reject(new DOMException("denied", "SecurityError")), delete: browser.deleteCache });
    await expect(forgetThisDevice()).resolves.toBeUndefined();
    expect(browser.clearAppBadge).toHaveBeenCalledOnce();
    browser.deleteCache.mockRejectedValueOnce(new Error("busy"));
    vi.stubGlobal("caches", { keys: async () => ["static-1", "pages-1"], delete: browser.deleteCache });
    await expect(forgetThisDevice()).resolves.toBeUndefined();
    expect(browser.deleteCache).toHaveBeenCalledWith("pages-1");
  });
});

describe("signing out", () => {
  it("forgets this device to the end though the server's sign-out fails, and waits for both", async () => {
    let forgotten = false;
    browser.deleteCache.mockImplementation(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      forgotten = true;
      return true;
    });
    await expect(signOutThisDevice(() => Promise.reject(new Error("offline")))).resolves.toBeUndefined();
    expect(forgotten).toBe(true);
  });

  it("waits for the server's sign-out though forgetting this device fails", async () => {
    vi.stubGlobal("localStorage", {
      getItem: () => {
        throw new DOMException("denied", "SecurityError");
      },
    });
    let ended = false;
    const endSession = () => new Promise<void>((resolve) => setTimeout(() => ((ended = true), resolve()), 5));
    await expect(signOutThisDevice(endSession)).resolves.toBeUndefined();
    expect(ended).toBe(true);
  });
});

describe("the app icon's count of a page", () => {
  const tab = () => {
    const target = new EventTarget();
    vi.stubGlobal("window", Object.assign(target, { caches: {} }));
    return target;
  };
  const setAppBadge = vi.fn(async () => undefined);
  beforeEach(() => {
    setAppBadge.mockClear();
    vi.stubGlobal("navigator", { clearAppBadge: browser.clearAppBadge, setAppBadge });
  });

  it("is set while the page's person is signed in here", () => {
    tab();
    const badge = appBadgeOfPage();
    badge.show(3);
    expect(setAppBadge).toHaveBeenCalledWith(3);
    badge.close();
  });

  it("is not set again by a count arriving after this tab signed out", async () => {
    tab();
    const badge = appBadgeOfPage();
    await forgetThisDevice();
    badge.show(4);
    expect(setAppBadge).not.toHaveBeenCalled();
    badge.close();
  });

  it("is not set again by a count arriving after another tab signed out (it cleared the storage they share)", () => {
    const window = tab();
    const badge = appBadgeOfPage();
    window.dispatchEvent(Object.assign(new Event("storage"), { key: null }));
    badge.show(2);
    expect(setAppBadge).not.toHaveBeenCalled();
    badge.close();
    // A page opened afterwards (the next person signed in) shows its own count.
    const next = appBadgeOfPage();
    next.show(1);
    expect(setAppBadge).toHaveBeenCalledWith(1);
    next.close();
  });
});
