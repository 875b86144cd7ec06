/** The browser's side of Web Push: this device's subscription, and the push settings' calls through the transport. */
import "client-only";
import { ApiError, api } from "@/lib/transport/client";
import { PUSH_OWNER_KEY, registerServiceWorker } from "@/lib/pwa/client";
import type { PushChoices, PushDevice } from "./subscriptions";

/** Where this device stands: no push in this browser, the browser's permission refused, or subscribed or not. */
export type DeviceState = "unsupported" | "denied" | "off" | "on";

/** Each state in the person's words: the settings' status line, and why turning on came to no more (settings and prompt alike). */
export const DEVICE_STATE_TEXT: Record<DeviceState, string> = {
  unsupported: "This browser cannot show notifications from the app.",
  denied: "This browser blocks notifications from Two of Us. Allow them in the browser's site settings, then come back here.",
  off: "Notifications are off on this device.",
  on: "Notifications are on for this device.",
};

const supported = () =>
  typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

const keyBytes = (base64url: string) => {
  const raw = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4));
  return Uint8Array.from(raw, (char) => char.charCodeAt(0));
};

/** Whether the browser's subscription was made with `key`: one made under another VAPID key is refused by its push service. */
const madeWith = (subscription: PushSubscription, key: Uint8Array) => {
  const held = subscription.options.applicationServerKey;
  return held !== null && held.byteLength === key.length && new Uint8Array(held).every((byte, at) => byte === key[at]);
};

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration("/");
  return (await registration?.pushManager.getSubscription()) ?? null;
}

export async function thisDeviceState(): Promise<DeviceState> {
  if (!supported()) return "unsupported";
  if (Notification.permission === "denied") return "denied";
  return Notification.permission === "granted" && (await currentSubscription()) ? "on" : "off";
}

/**
 * This device as the settings show it: 'on' only while the server sends to it too. The browser
 * keeps its subscription when the session it was made under ends (signed in over, expired, revoked
 * elsewhere) and the server stops sending to it: that reads 'off', and turning it on stores it again.
 */
export const shownDeviceState = (browser: DeviceState, devices: readonly Pick<PushDevice, "thisDevice">[]): DeviceState =>
  browser === "on" && !devices.some((device) => device.thisDevice) ? "off" : browser;

/**
 * The server forgets a subscription, and the browser's ends. One the server does not have (404:
 * stored under an ended session, or dropped when its push service said it was gone) ends too; a
 * refused removal (429, any other failure) is thrown with the subscription kept, so nothing says
 * it is off while the server still sends to it.
 */
async function endSubscription(subscription: PushSubscription): Promise<void> {
  await api("/api/push/subscriptions", { method: "DELETE", body: { endpoint: subscription.endpoint } }).catch((error: unknown) => {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  });
  await subscription.unsubscribe();
}

/**
 * Turns notifications on for this device: the browser's permission is asked here, so only after
 * the person pressed the button; then the subscription is made with the server's VAPID key and
 * stored. The browser's own subscription is kept only when it was made with that key: one from
 * before the key was changed is ended and made again (the browser refuses a second key beside it).
 */
export async function turnOnThisDevice(publicKey: string, userId: string | null): Promise<DeviceState> {
  if (!supported()) return "unsupported";
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return permission === "denied" ? "denied" : "off";
  const registration = (await registerServiceWorker()) && (await navigator.serviceWorker.ready);
  if (!registration) return "unsupported";
  const key = keyBytes(publicKey);
  const held = await registration.pushManager.getSubscription();
  const kept = held && madeWith(held, key) ? held : null;
  if (held && !kept) await endSubscription(held);
  const subscription = kept ?? (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }));
  const { endpoint, keys } = subscription.toJSON();
  await api("/api/push/subscriptions", { method: "POST", body: { endpoint, keys } });
  // This browser's push is this person's now (keepThisDeviceOn keeps it on for them alone).
  if (userId) localStorage.setItem(PUSH_OWNER_KEY, userId);
  return "on";
}

/** Looked at once a tab: one call to the device list, not one a page. */
const CHECKED_KEY = "push-device-checked";
/** When the server last listed this device: the page's session (its mark), the server's key and the subscription's endpoint. */
const LISTED_KEY = "push-device-listed";

/**
 * On a signed-in page: keeps push on for this browser across sign-ins. A session ends (it expires,
 * a password change or 'sign out everywhere' ends it) and the server stops sending to the
 * subscription made under it, while the browser keeps it and its permission, so the prompt never
 * comes back: the device would fall silent for good. When the server no longer lists this device,
 * it is turned on again under the new session (made again with the server's key if that changed),
 * only for the person who turned it on or the server last listed it for (another account signing
 * in on this browser is never sent their pushes without choosing so themselves). A device the
 * server listed under this very session, key and subscription, and lists no more, was removed
 * (from another device): it is left off, and nobody's. `session`: the page's (sessionMark).
 */
export async function keepThisDeviceOn(userId: string, publicKey: string, session: string): Promise<void> {
  if (!supported() || Notification.permission !== "granted" || sessionStorage.getItem(CHECKED_KEY) === userId) return;
  const subscription = await currentSubscription();
  if (!subscription) return;
  sessionStorage.setItem(CHECKED_KEY, userId);
  const devices = await listPushDevices().catch(() => null);
  if (!devices) return;
  const listed = [session, publicKey, subscription.endpoint].join(" ");
  if (devices.some((device) => device.thisDevice)) {
    localStorage.setItem(PUSH_OWNER_KEY, userId);
    return localStorage.setItem(LISTED_KEY, listed);
  }
  if (localStorage.getItem(PUSH_OWNER_KEY) !== userId) return;
  if (localStorage.getItem(LISTED_KEY) === listed) return localStorage.removeItem(PUSH_OWNER_KEY);
  await turnOnThisDevice(publicKey, userId).catch(() => undefined);
}

/** Turns notifications off for this device. */
export async function turnOffThisDevice(): Promise<void> {
  const subscription = await currentSubscription();
  if (subscription) await endSubscription(subscription);
}

export const listPushDevices = () => api<{ data: PushDevice[] }>("/api/push/subscriptions").then((body) => body.data);

/**
 * Removes one of the person's devices. 'This device' ends in the browser too and is nobody's:
 * else keepThisDeviceOn, at the next page, would store it again for its owner.
 */
export async function removePushDevice(device: Pick<PushDevice, "id" | "thisDevice">): Promise<void> {
  await api("/api/push/subscriptions", { method: "DELETE", body: { id: device.id } });
  if (!device.thisDevice) return;
  await (await currentSubscription())?.unsubscribe();
  localStorage.removeItem(PUSH_OWNER_KEY);
}

export const savePushChoices = (input: { showPreviews?: boolean; promptDone?: true }) =>
  api<{ data: PushChoices }>("/api/push/settings", { method: "PUT", body: input }).then((body) => body.data);
