"use client";

import { useContext, useEffect, useState } from "react";
import { LiveViewerContext } from "@/lib/live/client/stream";
import { savePushChoices, thisDeviceState, turnOnThisDevice } from "@/lib/notifications/push/client";
import { ApiError } from "@/lib/transport/client";
import styles from "./PushPrompt.module.css";

/**
 * The prompt answered: notifications turned on first when that was the answer, then the answer
 * remembered (not stored, the prompt is offered again another time). Turning on that failed is no
 * answer: what went wrong, for the prompt to say as it stays; null once answered.
 */
export async function answerPushPrompt(turnOn: (() => Promise<unknown>) | null, remember: () => Promise<unknown>): Promise<string | null> {
  try {
    await turnOn?.();
  } catch (error) {
    return error instanceof ApiError ? error.message : "Could not turn on notifications. Please try again.";
  }
  await remember().catch(() => undefined);
  return null;
}

/**
 * The one gentle prompt, after the couple's first accepted hello: shown only where this browser
 * can show notifications and has not been asked yet; the browser's own question comes only after
 * 'Turn on notifications' is pressed. Either answer is remembered: it is not shown again.
 */
export function PushPrompt({ publicKey }: { publicKey: string }) {
  const viewerId = useContext(LiveViewerContext);
  const [visible, setVisible] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    void thisDeviceState().then((state) => setVisible(state === "off" && Notification.permission === "default"));
  }, []);
  if (!visible) return null;

  const answer = async (turnOn: boolean) => {
    setBusy(true);
    setFailure(null);
    const failed = await answerPushPrompt(turnOn ? () => turnOnThisDevice(publicKey, viewerId) : null, () =>
      savePushChoices({ promptDone: true }),
    );
    setBusy(false);
    if (failed) setFailure(failed);
    else setVisible(false);
  };

  return (
    <aside className={styles.prompt} aria-labelledby="push-prompt-title">
      <h2 id="push-prompt-title" className={styles.title}>
        Know when they write back
      </h2>
      <p className={styles.text}>A notification on this device when a couple writes to you, even with the app closed.</p>
      {failure && (
        <p className={`field-error ${styles.text}`} role="alert">
          {failure}
        </p>
      )}
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
