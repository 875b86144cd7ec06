"use client";

import { useState } from "react";
import { useZodForm, type SchemaLoader } from "@/components/forms/useZodForm";
import { Alert } from "@/components/ui/Alert";
import { CHANNELS, definitionOf, NOTIFICATION_TYPES, type NotificationPreferences } from "@/lib/notifications/rules";
import { ApiError } from "@/lib/transport/client";
import { changedPreferences } from "@/lib/settings/changes";
import { loadNotificationPreferences, saveNotificationPreferences } from "@/lib/settings/client/api";
import styles from "./settings.module.css";

type Values = { preferences: NotificationPreferences };
type Schema = Awaited<ReturnType<SchemaLoader<Values, Values>>>;

/** The call's schema, which reads its types loosely (the ones added later are optional): the form holds every one. */
const loadSchema = () =>
  import("@/lib/notifications/schemas").then((schemas) => schemas.notificationPreferencesSchema as unknown as Schema);

/** One group per type, its channels' checkboxes on one line (CHANNELS: in the app, by e-mail, push); the changed types saved together. */
export function NotificationSettings({ initial }: { initial: NotificationPreferences }) {
  const [notice, setNotice] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { isSubmitting: pending, defaultValues },
  } = useZodForm(loadSchema, { preferences: initial }, "on-submit");

  const submit = handleSubmit(async ({ preferences }) => {
    setNotice(null);
    try {
      // Only the types changed here since the page loaded or saved (the form's defaults), over their choices as they stand now.
      const saved = (defaultValues?.preferences ?? initial) as NotificationPreferences;
      const current = await loadNotificationPreferences();
      reset({ preferences: await saveNotificationPreferences(changedPreferences(saved, preferences, current)) });
      setNotice({ tone: "success", text: "Your notification choices were saved." });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setNotice({ tone: "error", text: error.message });
    }
  });

  return (
    <form onSubmit={submit} className={styles.groups}>
      {notice && <Alert tone={notice.tone}>{notice.text}</Alert>}
      <div className={styles.groupGrid}>
        {NOTIFICATION_TYPES.map((type) => (
          <fieldset key={type} className={styles.group}>
            <legend>{definitionOf(type).label}</legend>
            <p className={`muted ${styles.small}`}>{definitionOf(type).hint}</p>
            <div className={styles.channels}>
              {CHANNELS.map((channel) =>
                // A service e-mail (the type's `serviceEmail`) is always sent: shown on, not offered to turn off.
                channel.key === "email" && definitionOf(type).serviceEmail ? (
                  <label key={channel.key} className="choice">
                    <input type="checkbox" defaultChecked disabled />
                    {`${channel.label} (always: it is about your own account)`}
                  </label>
                ) : (
                  <label key={channel.key} className="choice">
                    <input type="checkbox" {...register(`preferences.${type}.${channel.key}`)} />
                    {channel.label}
                  </label>
                ),
              )}
            </div>
          </fieldset>
        ))}
      </div>
      <button type="submit" className="button button-primary" disabled={pending}>
        {pending ? "Saving..." : "Save notification choices"}
      </button>
    </form>
  );
}
