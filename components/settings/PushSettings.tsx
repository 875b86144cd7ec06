"use client";

import { useCallback, useContext, useEffect, useState } from "react";
import { LiveViewerContext } from "@/lib/live/client/stream";
import { Alert } from "@/components/ui/Alert";
import { ApiError } from "@/lib/transport/client";
import {
  DEVICE_STATE_TEXT,
  listPushDevices,
  removePushDevice,
  savePushChoices,
  shownDeviceState,
  thisDeviceState,
  turnOffThisDevice,
  turnOnThisDevice,
  type DeviceState,
} from "@/lib/notifications/push/client";
import type { PushDevice } from "@/lib/notifications/push/subscriptions";
import styles from "./settings.module.css";

const when = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" });

type Notice = { tone: "error" | "success"; text: string };

/** A 'Turn on' the browser refused (its permission blocked, no push in it): said in the state's own words. */
class TurnedOnRefused extends Error {}

/** 'Turn on notifications on this device' pressed: anything but 'on' is a failure, with the state's text as its reason. */
export async function turnOnPressed(turnOn: () => Promise<DeviceState>): Promise<void> {
  const now = await turnOn();
  if (now !== "on") throw new TurnedOnRefused(DEVICE_STATE_TEXT[now]);
}

/**
 * What a press in this section came to, with the device list read again whatever that was: a
 * removal refused because the device is gone already (removed on another one: "Device not found")
 * says so and drops its stale row.
 */
export async function settled(work: () => Promise<void>, done: string, reload: () => void): Promise<Notice> {
  try {
    await work();
    return { tone: "success", text: done };
  } catch (error) {
    const said = error instanceof ApiError || error instanceof TurnedOnRefused;
    return { tone: "error", text: said ? error.message : "That did not work. Please try again." };
  } finally {
    reload();
  }
}

/**
 * 'Notifications on this device' (the browser's permission is asked only when the button is
 * pressed), 'Show message previews', and the person's devices with 'Remove'. `publicKey` is null
 * when this server has no VAPID keys: push is off, and the section says so.
 */
export function PushSettings({ publicKey, initialPreviews }: { publicKey: string | null; initialPreviews: boolean }) {
  const viewerId = useContext(LiveViewerContext);
  const [state, setState] = useState<DeviceState | null>(null);
  const [devices, setDevices] = useState<PushDevice[] | null>(null);
  const [previews, setPreviews] = useState(initialPreviews);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);

  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  useEffect(() => {
    if (!publicKey) return;
    let current = true;
    Promise.all([thisDeviceState(), listPushDevices()]).then(
      ([now, list]) => {
        if (!current) return;
        setState(shownDeviceState(now, list));
        setDevices(list);
      },
      // Not read (offline): the rows shown stay rather than reading as no device at all.
      () => current && setDevices((shown) => shown ?? []),
    );
    return () => {
      current = false;
    };
  }, [publicKey, version]);

  const run = async (work: () => Promise<void>, done: string) => {
    setBusy(true);
    setNotice(null);
    setNotice(await settled(work, done, reload));
    setBusy(false);
  };

  if (!publicKey)
    return (
      <section className={styles.box} aria-labelledby="push-title">
        <h2 id="push-title">Notifications on this device</h2>
        <p className="muted">Push notifications are off on this server: it has no keys to send them with (VAPID).</p>
      </section>
    );

  return (
    <section className={styles.box} aria-labelledby="push-title">
      <h2 id="push-title">Notifications on this device</h2>
      {notice && <Alert tone={notice.tone}>{notice.text}</Alert>}
      <p role="status">{state === null ? "Checking this device..." : DEVICE_STATE_TEXT[state]}</p>
      {state === "off" && (
        <button
          type="button"
          className="button button-primary"
          disabled={busy}
          onClick={() => void run(() => turnOnPressed(() => turnOnThisDevice(publicKey, viewerId)), DEVICE_STATE_TEXT.on)}
        >
          Turn on notifications on this device
        </button>
      )}
      {state === "on" && (
        <button
          type="button"
          className="button button-secondary"
          disabled={busy}
          onClick={() => void run(turnOffThisDevice, DEVICE_STATE_TEXT.off)}
        >
          Turn off on this device
        </button>
      )}
      <label className={`choice ${styles.afterAction}`}>
        <input
          type="checkbox"
          checked={previews}
          disabled={busy}
          onChange={(event) => {
            const showPreviews = event.target.checked;
            setPreviews(showPreviews);
            void run(
              async () => {
                try {
                  await savePushChoices({ showPreviews });
                } catch (error) {
                  // Not saved: the box shows the choice that stands.
                  setPreviews(!showPreviews);
                  throw error;
                }
              },
              showPreviews ? "Message previews are on." : "Message previews are off.",
            );
          }}
        />
        Show message previews (the first line of a message, a plan&apos;s details, a reply&apos;s words; off, a notification says only who
        wrote or what happened)
      </label>
      <h3>Your devices</h3>
      {devices === null ? (
        <p className="muted">Loading your devices...</p>
      ) : devices.length === 0 ? (
        <p className="muted">No device has notifications on.</p>
      ) : (
        <ul className={styles.rows} aria-label="Devices with notifications on">
          {devices.map((device) => (
            <li key={device.id} className={styles.row}>
              <div>
                <strong>{device.label}</strong>
                {device.thisDevice && <span className={styles.tag}> This device</span>}
                <div className={`muted ${styles.small}`}>
                  Added {when.format(new Date(device.addedAt))}
                  {device.lastDeliveredAt ? ` · Last notified ${when.format(new Date(device.lastDeliveredAt))}` : ""}
                </div>
              </div>
              <button
                type="button"
                className="button button-secondary"
                disabled={busy}
                aria-label={`Remove ${device.label}, added ${when.format(new Date(device.addedAt))}`}
                onClick={() => void run(() => removePushDevice(device), `${device.label} no longer gets notifications.`)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
