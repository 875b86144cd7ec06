import type { Metadata } from "next";
import { NotificationSettings } from "@/components/settings/NotificationSettings";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { getPreferences } from "@/lib/notifications/preferences";
import { withDb } from "@/lib/with-db";
import styles from "@/components/settings/settings.module.css";

export const metadata: Metadata = { title: "Notification settings" };

export default async function NotificationSettingsPage() {
  const { userId } = await requireCompleteProfile();
  const preferences = await withDb((db) => getPreferences(db, userId));
  return (
    <main id="main" className={styles.narrow}>
      <h1>Notifications</h1>
      <p className="muted">For each kind of notification, choose whether it shows in the app and whether it is sent by e-mail.</p>
      <NotificationSettings initial={preferences} />
    </main>
  );
}
