"use client";

import { useState } from "react";
import { joinWaitlistAction } from "@/app/(app)/events/actions";
import { Alert } from "@/components/ui/Alert";
import { EVENT_MESSAGES } from "@/lib/events/rules";
import styles from "./WaitlistButton.module.css";
import { reach } from "@/lib/transport/actions";

/** 'Notify us when events launch', shown as done once the couple asked (by either partner). */
export function WaitlistButton({ done: initiallyDone }: { done: boolean }) {
  const [done, setDone] = useState(initiallyDone);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (done) {
    return (
      <p className={styles.done} role="status">
        ✓ {EVENT_MESSAGES.waitlistDone}
      </p>
    );
  }
  return (
    <div>
      {error && <Alert tone="error">{error}</Alert>}
      <button
        type="button"
        className="button button-primary"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setError(null);
          const result = await reach(() => joinWaitlistAction());
          setBusy(false);
          if (result.ok) setDone(true);
          else setError(result.message);
        }}
      >
        Notify us when events launch
      </button>
    </div>
  );
}
