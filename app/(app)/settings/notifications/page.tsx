import type { Metadata } from "next";
import { NotificationSettings } from "@/components/settings/NotificationSettings";
import { PushSettings } from "@/components/settings/PushSettings";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { getPreferences } from "@/lib/notifications/preferences";
import { vapidKeys } from "@/lib/notifications/push/config";
import { getPushChoices } from "@/lib/notifications/push/subscriptions";
import { withDb } from "@/lib/with-db";
import styles from "@/components/settings/settings.module.css";

export const metadata: Metadata = { title: "Notification settings" };

export default async function NotificationSettingsPage() {
  const { userId } = await requireCompleteProfile();
  const [preferences, push] = await withDb((db) => Promise.all([getPreferences(db, userId), getPushChoices(db, userId)]));
  return (
    <main id="main" className={styles.narrow}>
      <h1>Notifications</h1>
      <p className="muted">
        For each kind of notification, choose whether it shows in the app, whether it is sent by e-mail, and whether it reaches your devices
        with notifications on (Push).
      </p>
      <PushSettings publicKey={vapidKeys()?.publicKey ?? null} initialPreviews={push.showPreviews} />
      <NotificationSettings initial={preferences} />
    </main>
  );
}
