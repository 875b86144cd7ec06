"use client";

import { useContext, useEffect, useState } from "react";
import { LiveViewerContext } from "@/lib/live/client/stream";
import { DEVICE_STATE_TEXT, savePushChoices, thisDeviceState, turnOnThisDevice, type DeviceState } from "@/lib/notifications/push/client";
import { ApiError } from "@/lib/transport/client";
import styles from "./PushPrompt.module.css";

/** What the prompt came to: answered (remembered, it goes), and what it says first, if anything. */
export type PromptAnswer = { answered: boolean; note: string | null };

/**
 * The prompt answered: notifications turned on first when that was the answer, then the answer
 * remembered (not stored, the prompt is offered again another time). Turning on that failed is no
 * answer, nor one that found no push after all (the service worker not registered): the prompt
 * stays and says why. The browser's own question answered 'Block' is an answer, said as blocked.
 */
export async function answerPushPrompt(
  turnOn: (() => Promise<DeviceState>) | null,
  remember: () => Promise<unknown>,
): Promise<PromptAnswer> {
  let now: DeviceState | null = null;
  try {
    now = (await turnOn?.()) ?? null;
  } catch (error) {
    return { answered: false, note: error instanceof ApiError ? error.message : "Could not turn on notifications. Please try again." };
  }
  if (now === "unsupported") return { answered: false, note: DEVICE_STATE_TEXT.unsupported };
  await remember().catch(() => undefined);
  return { answered: true, note: now === "denied" ? DEVICE_STATE_TEXT.denied : null };
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
  const [shown, setShown] = useState<PromptAnswer>({ answered: false, note: null });
  useEffect(() => {
    void thisDeviceState().then((state) => setVisible(state === "off" && Notification.permission === "default"));
  }, []);
  if (!visible) return null;

  const answer = async (turnOn: boolean) => {
    setBusy(true);
    setShown({ answered: false, note: null });
    const came = await answerPushPrompt(turnOn ? () => turnOnThisDevice(publicKey, viewerId) : null, () =>
      savePushChoices({ promptDone: true }),
    );
    setBusy(false);
    // Answered with nothing to say, it goes; with a note (blocked), it stays until closed.
    if (came.answered && !came.note) setVisible(false);
    else setShown(came);
  };

  return (
    <aside className={styles.prompt} aria-labelledby="push-prompt-title">
      <h2 id="push-prompt-title" className={styles.title}>
        Know when they write back
      </h2>
      <p className={styles.text}>A notification on this device when a couple writes to you, even with the app closed.</p>
      {shown.note && (
        <p className={`field-error ${styles.text}`} role="alert">
          {shown.note}
        </p>
      )}
      <div className={styles.actions}>
        {shown.answered ? (
          <button type="button" className="button button-secondary" onClick={() => setVisible(false)}>
            Close
          </button>
        ) : (
          <>
            <button type="button" className="button button-primary" disabled={busy} onClick={() => void answer(true)}>
              Turn on notifications
            </button>
            <button type="button" className="button button-secondary" disabled={busy} onClick={() => void answer(false)}>
              Not now
            </button>
          </>
        )}
      </div>
    </aside>
  );
}
