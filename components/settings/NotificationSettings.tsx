"use client";

import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/Alert";
import { CHANNELS, definitionOf, NOTIFICATION_TYPES, type Channel, type NotificationPreferences } from "@/lib/notifications/rules";
import { ApiError } from "@/lib/http/client";
import { saveNotificationPreferences } from "@/lib/settings/client/api";
import styles from "./settings.module.css";

/** One row per type, one checkbox per channel (CHANNELS: in the app, by e-mail, push); saved together. */
export function NotificationSettings({ initial }: { initial: NotificationPreferences }) {
  const [prefs, setPrefs] = useState(initial);
  const [notice, setNotice] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const [pending, setPending] = useState(false);

  const toggle = (type: keyof NotificationPreferences, channel: Channel) =>
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
          <legend>{definitionOf(type).label}</legend>
          <p className={`muted ${styles.small}`}>{definitionOf(type).hint}</p>
          {CHANNELS.map((channel) => (
            <label key={channel.key} className="choice">
              <input
                type="checkbox"
                checked={prefs[type][channel.key]}
                onChange={() => toggle(type, channel.key)}
                name={`${type}-${channel.field}`}
              />
              {channel.label}
            </label>
          ))}
        </fieldset>
      ))}
      <button type="submit" className="button button-primary" disabled={pending}>
        {pending ? "Saving..." : "Save notification choices"}
      </button>
    </form>
  );
}
