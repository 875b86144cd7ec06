import webpush from "web-push";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/**
 * Turning push on for this device (lib/notifications/push/client.ts) in a stand-in browser: the
 * subscription it holds is reused only when it was made with the server's VAPID key; and keeping
 * it on across sign-ins, for the person it was on for alone.
 */

const { api, pushManager } = vi.hoisted(() => ({
  api: vi.fn(async (..._call: unknown[]) => ({})),
  pushManager: { getSubscription: vi.fn(), subscribe: vi.fn() },
}));
vi.mock("@/lib/transport/client", async (importOriginal) => ({ ...(await importOriginal<object>()), api }));
vi.mock("@/lib/pwa/client", () => ({ registerServiceWorker: async () => ({ pushManager }), PUSH_OWNER_KEY: "push-device-owner" }));

const { keepThisDeviceOn, removePushDevice, turnOffThisDevice, turnOnThisDevice } = await import("@/lib/notifications/push/client");
const { ApiError } = await import("@/lib/transport/client");

/** The transport's error for a refused call, as the server's 429 (its limit's words) or 404 reaches it. */
const rateLimited = () => new ApiError(429, "RATE_LIMITED", "Too many requests. Please try again later.");
const notFound = () => new ApiError(404, "NOT_FOUND", "Device not found");

/** A subscription as the browser holds it, made with `key` (base64url, as the server hands it). */
function browserSubscription(endpoint: string, key: string) {
  return {
    endpoint,
    options: { applicationServerKey: new Uint8Array(Buffer.from(key, "base64url")).buffer },
    toJSON: () => ({ endpoint, keys: { p256dh: "p256dh", auth: "auth" } }),
    unsubscribe: vi.fn(async () => true),
  };
}

const serverKey = webpush.generateVAPIDKeys().publicKey;

/** A stand-in for the browser's localStorage or sessionStorage. */
function storage() {
  const held = new Map<string, string>();
  return {
    getItem: (key: string) => held.get(key) ?? null,
    setItem: (key: string, value: string) => void held.set(key, value),
    removeItem: (key: string) => void held.delete(key),
  };
}

beforeEach(() => {
  vi.stubGlobal("window", { PushManager: class {}, Notification: {} });
  vi.stubGlobal("Notification", { permission: "granted", requestPermission: async () => "granted" });
  vi.stubGlobal("navigator", {
    serviceWorker: { ready: Promise.resolve({ pushManager }), getRegistration: async () => ({ pushManager }) },
  });
  vi.stubGlobal("localStorage", storage());
  vi.stubGlobal("sessionStorage", storage());
  pushManager.subscribe.mockImplementation(async ({ applicationServerKey }: { applicationServerKey: Uint8Array }) =>
    browserSubscription("https://push.example.com/new", Buffer.from(applicationServerKey).toString("base64url")),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

describe("turning push on for this device", () => {
  it("keeps the browser's subscription made with the server's key", async () => {
    const held = browserSubscription("https://push.example.com/held", serverKey);
    pushManager.getSubscription.mockResolvedValue(held);
    expect(await turnOnThisDevice(serverKey, "ana")).toBe("on");
    expect(pushManager.subscribe).not.toHaveBeenCalled();
    expect(held.unsubscribe).not.toHaveBeenCalled();
    expect(api.mock.calls).toEqual([["/api/push/subscriptions", { method: "POST", body: held.toJSON() }]]);
  });

  it("ends one made under another key (the server's was changed) and subscribes again with the server's", async () => {
    const held = browserSubscription("https://push.example.com/held", webpush.generateVAPIDKeys().publicKey);
    pushManager.getSubscription.mockResolvedValue(held);
    expect(await turnOnThisDevice(serverKey, "ana")).toBe("on");
    expect(held.unsubscribe).toHaveBeenCalled();
    const [[{ applicationServerKey }]] = pushManager.subscribe.mock.calls as [[{ applicationServerKey: Uint8Array }]];
    expect(Buffer.from(applicationServerKey).toString("base64url")).toBe(serverKey);
    expect(api.mock.calls).toEqual([
      ["/api/push/subscriptions", { method: "DELETE", body: { endpoint: held.endpoint } }],
      [
        "/api/push/subscriptions",
        { method: "POST", body: { endpoint: "https://push.example.com/new", keys: { p256dh: "p256dh", auth: "auth" } } },
      ],
    ]);
  });
});

describe("keeping this device's push on across sign-ins", () => {
  const devices = (thisDevice: boolean) => ({ data: thisDevice ? [{ id: "d1", thisDevice: true }] : [{ id: "d2", thisDevice: false }] });

  it("stores the browser's subscription again under the new session for the person the server last listed it for, once a tab", async () => {
    const held = browserSubscription("https://push.example.com/held", serverKey);
    pushManager.getSubscription.mockResolvedValue(held);
    api.mockResolvedValueOnce(devices(true));
    await keepThisDeviceOn("ana", serverKey, "session-1");
    expect(api.mock.calls).toEqual([["/api/push/subscriptions"]]);

    // Ana's session ended (it expired); she signs in again in a new tab: the server lists no device here.
    vi.stubGlobal("sessionStorage", storage());
    api.mockClear();
    api.mockResolvedValueOnce(devices(false));
    await keepThisDeviceOn("ana", serverKey, "session-2");
    expect(api.mock.calls).toEqual([["/api/push/subscriptions"], ["/api/push/subscriptions", { method: "POST", body: held.toJSON() }]]);
    api.mockClear();
    await keepThisDeviceOn("ana", serverKey, "session-2");
    expect(api).not.toHaveBeenCalled();
  });

  it("never stores it for another person signing in on this browser, nor without permission", async () => {
    const held = browserSubscription("https://push.example.com/held", serverKey);
    pushManager.getSubscription.mockResolvedValue(held);
    localStorage.setItem("push-device-owner", "ana");
    api.mockResolvedValue(devices(false));
    await keepThisDeviceOn("bea", serverKey, "session-1");
    expect(api.mock.calls).toEqual([["/api/push/subscriptions"]]);

    vi.stubGlobal("sessionStorage", storage());
    vi.stubGlobal("Notification", { permission: "default" });
    api.mockClear();
    await keepThisDeviceOn("ana", serverKey, "session-2");
    expect(api).not.toHaveBeenCalled();
  });

  it("makes it again with the server's key when the key changed meanwhile, for the person who turned it on here", async () => {
    const held = browserSubscription("https://push.example.com/held", webpush.generateVAPIDKeys().publicKey);
    pushManager.getSubscription.mockResolvedValue(held);
    expect(await turnOnThisDevice(serverKey, "ana")).toBe("on");
    expect(localStorage.getItem("push-device-owner")).toBe("ana");
    const remade = browserSubscription("https://push.example.com/new", webpush.generateVAPIDKeys().publicKey);
    pushManager.getSubscription.mockResolvedValue(remade);
    api.mockClear();
    api.mockResolvedValueOnce(devices(false));
    await keepThisDeviceOn("ana", serverKey, "session-1");
    expect(api.mock.calls.map(([path, init]) => `${(init as { method?: string } | undefined)?.method ?? "GET"} ${path}`)).toEqual([
      "GET /api/push/subscriptions",
      "DELETE /api/push/subscriptions",
      "POST /api/push/subscriptions",
    ]);
  });

  it("never stores it again once 'This device' was removed on it: the browser's subscription ends, and it is nobody's", async () => {
    const held = browserSubscription("https://push.example.com/held", serverKey);
    pushManager.getSubscription.mockResolvedValue(held);
    expect(await turnOnThisDevice(serverKey, "ana")).toBe("on");
    await removePushDevice({ id: "d1", thisDevice: true });
    expect(held.unsubscribe).toHaveBeenCalled();
    expect(localStorage.getItem("push-device-owner")).toBeNull();

    // A new tab (or a new session): the server lists no device here, and nothing is stored again.
    api.mockClear();
    api.mockResolvedValueOnce(devices(false));
    await keepThisDeviceOn("ana", serverKey, "session-2");
    expect(api.mock.calls).toEqual([["/api/push/subscriptions"]]);
  });

  it("removes another device on the server alone, leaving this one on", async () => {
    const held = browserSubscription("https://push.example.com/held", serverKey);
    pushManager.getSubscription.mockResolvedValue(held);
    expect(await turnOnThisDevice(serverKey, "ana")).toBe("on");
    api.mockClear();
    await removePushDevice({ id: "d2", thisDevice: false });
    expect(api.mock.calls).toEqual([["/api/push/subscriptions", { method: "DELETE", body: { id: "d2" } }]]);
    expect(held.unsubscribe).not.toHaveBeenCalled();
    expect(localStorage.getItem("push-device-owner")).toBe("ana");
  });

  it("leaves a device removed from another device off: listed under this session, then no more; nor does a later session bring it back", async () => {
    const held = browserSubscription("https://push.example.com/held", serverKey);
    pushManager.getSubscription.mockResolvedValue(held);
    expect(await turnOnThisDevice(serverKey, "ana")).toBe("on");
    api.mockClear();
    api.mockResolvedValueOnce(devices(true));
    await keepThisDeviceOn("ana", serverKey, "session-1");

    // Bea removes it in her phone's settings; Ana opens a new tab here, same session.
    for (const session of ["session-1", "session-2"]) {
      vi.stubGlobal("sessionStorage", storage());
      api.mockClear();
      api.mockResolvedValueOnce(devices(false));
      await keepThisDeviceOn("ana", serverKey, session);
      expect(api.mock.calls).toEqual([["/api/push/subscriptions"]]);
    }
    expect(localStorage.getItem("push-device-owner")).toBeNull();
  });

  it("stores it again within the session when the push service gave the browser a new subscription, or the server's key changed", async () => {
    const held = browserSubscription("https://push.example.com/held", serverKey);
    pushManager.getSubscription.mockResolvedValue(held);
    expect(await turnOnThisDevice(serverKey, "ana")).toBe("on");
    api.mockResolvedValueOnce(devices(true));
    await keepThisDeviceOn("ana", serverKey, "session-1");

    const rotated = browserSubscription("https://push.example.com/rotated", serverKey);
    pushManager.getSubscription.mockResolvedValue(rotated);
    vi.stubGlobal("sessionStorage", storage());
    api.mockClear();
    api.mockResolvedValueOnce(devices(false));
    await keepThisDeviceOn("ana", serverKey, "session-1");
    expect(api.mock.calls).toEqual([["/api/push/subscriptions"], ["/api/push/subscriptions", { method: "POST", body: rotated.toJSON() }]]);

    api.mockResolvedValueOnce(devices(true));
    vi.stubGlobal("sessionStorage", storage());
    await keepThisDeviceOn("ana", serverKey, "session-1");
    const newKey = webpush.generateVAPIDKeys().publicKey;
    vi.stubGlobal("sessionStorage", storage());
    api.mockClear();
    api.mockResolvedValueOnce(devices(false));
    await keepThisDeviceOn("ana", newKey, "session-1");
    expect(api.mock.calls.map(([path, init]) => `${(init as { method?: string } | undefined)?.method ?? "GET"} ${path}`)).toEqual([
      "GET /api/push/subscriptions",
      "DELETE /api/push/subscriptions",
      "POST /api/push/subscriptions",
    ]);
  });
});

describe("a removal the server refuses", () => {
  it("turning this device off: the error reaches the settings, and the browser keeps its subscription, still on", async () => {
    const held = browserSubscription("https://push.example.com/held", serverKey);
    pushManager.getSubscription.mockResolvedValue(held);
    api.mockRejectedValueOnce(rateLimited());
    await expect(turnOffThisDevice()).rejects.toMatchObject({ status: 429, message: "Too many requests. Please try again later." });
    expect(held.unsubscribe).not.toHaveBeenCalled();
  });

  it("turning this device off when the server no longer has it (404): the browser's subscription ends all the same", async () => {
    const held = browserSubscription("https://push.example.com/held", serverKey);
    pushManager.getSubscription.mockResolvedValue(held);
    api.mockRejectedValueOnce(notFound());
    await turnOffThisDevice();
    expect(held.unsubscribe).toHaveBeenCalled();
  });

  it("'Remove' on this device: the error reaches the settings, and the browser's subscription and its owner stay", async () => {
    const held = browserSubscription("https://push.example.com/held", serverKey);
    pushManager.getSubscription.mockResolvedValue(held);
    expect(await turnOnThisDevice(serverKey, "ana")).toBe("on");
    api.mockRejectedValueOnce(rateLimited());
    await expect(removePushDevice({ id: "d1", thisDevice: true })).rejects.toMatchObject({ status: 429 });
    expect(held.unsubscribe).not.toHaveBeenCalled();
    expect(localStorage.getItem("push-device-owner")).toBe("ana");
  });

  it("a subscription under an old key: turning on fails with the error, the old one not ended and no new one made", async () => {
    const held = browserSubscription("https://push.example.com/held", webpush.generateVAPIDKeys().publicKey);
    pushManager.getSubscription.mockResolvedValue(held);
    api.mockRejectedValueOnce(rateLimited());
    await expect(turnOnThisDevice(serverKey, "ana")).rejects.toMatchObject({ status: 429 });
    expect(held.unsubscribe).not.toHaveBeenCalled();
    expect(pushManager.subscribe).not.toHaveBeenCalled();
  });
});
