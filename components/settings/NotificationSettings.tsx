"use client";

import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/Alert";
import { NOTIFICATION_TYPES, NOTIFICATION_TYPE_LABELS, type NotificationPreferences } from "@/lib/notifications/rules";
import { ApiError } from "@/lib/http/client";
import { saveNotificationPreferences } from "@/lib/settings/client/api";
import styles from "./settings.module.css";

/** One row per type: in the app, by e-mail; saved together. */
export function NotificationSettings({ initial }: { initial: NotificationPreferences }) {
  const [prefs, setPrefs] = useState(initial);
  const [notice, setNotice] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const [pending, setPending] = useState(false);

  const toggle = (type: keyof NotificationPreferences, channel: "inApp" | "email") =>
    setPrefs((current) => ({ ...current, [type]: { ...current[type], [channel]: !current[type][channel] } }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setNotice(null);
    try {
      setPrefs(await saveNotificationPreferences(prefs));
      setNotice({ tone: "success", text: "Your notification choices were saved." });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setNotice({ tone: "error", text: error.message });
    } finally {
      setPending(false);
    }
  };

  return (
    <form onSubmit={submit} className={styles.box}>
      {notice && <Alert tone={notice.tone}>{notice.text}</Alert>}
      {NOTIFICATION_TYPES.map((type) => (
        <fieldset key={type} className={styles.group}>
          <legend>{NOTIFICATION_TYPE_LABELS[type].label}</legend>
          <p className={`muted ${styles.small}`}>{NOTIFICATION_TYPE_LABELS[type].hint}</p>
          <label className="choice">
            <input type="checkbox" checked={prefs[type].inApp} onChange={() => toggle(type, "inApp")} name={`${type}-in-app`} />
            In the app
          </label>
          <label className="choice">
            <input type="checkbox" checked={prefs[type].email} onChange={() => toggle(type, "email")} name={`${type}-email`} />
            By e-mail
          </label>
        </fieldset>
      ))}
      <button type="submit" className="button button-primary" disabled={pending}>
        {pending ? "Saving..." : "Save notification choices"}
      </button>
    </form>
  );
}
