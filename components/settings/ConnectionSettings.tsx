"use client";

import { useId, useState } from "react";
import { saveBothApprove } from "@/lib/settings/client/api";
import { SAVE_FAILED } from "@/lib/settings/client/save";
import { StatusLine } from "./StatusLine";
import type { Status } from "./useSettingsSave";
import styles from "./settings.module.css";

/** 'Both of us approve new connections': off by default, saved as soon as it changes (by either partner, for the couple). */
export function ConnectionSettings({ initial }: { initial: boolean }) {
  const id = useId();
  const [on, setOn] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);

  async function toggle(next: boolean) {
    setOn(next);
    setBusy(true);
    setStatus(null);
    try {
      await saveBothApprove(next);
      setStatus({
        tone: "success",
        text: next ? "A new conversation now opens once both of you accept." : "Either of you can now accept a new conversation.",
      });
    } catch (failure) {
      setOn(!next);
      setStatus({ tone: "error", text: failure instanceof Error ? failure.message : SAVE_FAILED });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className={styles.section} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>New connections</h2>
      <label className="choice">
        <input
          type="checkbox"
          role="switch"
          checked={on}
          disabled={busy}
          aria-describedby={`${id}-hint`}
          onChange={(event) => void toggle(event.target.checked)}
        />
        <span>Both of us approve new connections</span>
      </label>
      <p id={`${id}-hint`} className="field-hint">
        When this is on, a couple who says hello can message you only once both of you have accepted; either of you declining declines it.
        Each of you sees whether the other has accepted.
      </p>
      <StatusLine status={status} />
    </section>
  );
}
