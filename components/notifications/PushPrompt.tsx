"use client";

import { useContext, useEffect, useState } from "react";
import { LiveViewerContext } from "@/lib/live/client/stream";
import { savePushChoices, thisDeviceState, turnOnThisDevice } from "@/lib/notifications/push/client";
import styles from "./PushPrompt.module.css";

/**
 * The one gentle prompt, after the couple's first accepted hello: shown only where this browser
 * can show notifications and has not been asked yet; the browser's own question comes only after
 * 'Turn on notifications' is pressed. Either answer is remembered: it is not shown again.
 */
export function PushPrompt({ publicKey }: { publicKey: string }) {
  const viewerId = useContext(LiveViewerContext);
  const [visible, setVisible] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void thisDeviceState().then((state) => setVisible(state === "off" && Notification.permission === "default"));
  }, []);
  if (!visible) return null;

  const answer = async (turnOn: boolean) => {
    setBusy(true);
    try {
      if (turnOn) await turnOnThisDevice(publicKey, viewerId);
    } finally {
      await savePushChoices({ promptDone: true }).catch(() => undefined);
      setVisible(false);
    }
  };

  return (
    <aside className={styles.prompt} aria-labelledby="push-prompt-title">
      <h2 id="push-prompt-title" className={styles.title}>
        Know when they write back
      </h2>
      <p className={styles.text}>A notification on this device when a couple writes to you, even with the app closed.</p>
      <div className={styles.actions}>
        <button type="button" className="button button-primary" disabled={busy} onClick={() => void answer(true)}>
          Turn on notifications
        </button>
        <button type="button" className="button button-secondary" disabled={busy} onClick={() => void answer(false)}>
          Not now
        </button>
      </div>
    </aside>
  );
}
