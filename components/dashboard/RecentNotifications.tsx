"use client";

import Link from "next/link";
import { useLatestNotifications } from "@/components/notifications/hooks";
import { NotificationLink } from "@/components/notifications/NotificationSummary";
import { markOpened } from "@/lib/notifications/client";
import { notificationHref, type NotificationView } from "@/lib/notifications/rules";
import styles from "./dashboard.module.css";

/**
 * The dashboard's 'Recent notifications': the newest few as the bell shows them (faces first),
 * rendered with the page and kept current by the live stream, so the card and the bell agree.
 */
export function RecentNotifications({ initial, limit }: { initial: NotificationView[]; limit: number }) {
  const items = useLatestNotifications(limit, initial);
  return (
    <section className={styles.card} aria-labelledby="dashboard-notifications">
      <h2 id="dashboard-notifications">Recent notifications</h2>
      {items.length === 0 ? (
        <p className={styles.empty}>Nothing new yet. Post in the forum or reply to a couple, and you will hear back here.</p>
      ) : (
        <ul className={styles.notifications}>
          {items.map((item) => (
            <li key={item.id}>
              <NotificationLink item={item} href={notificationHref(item)} compact onClick={() => markOpened(item)} />
            </li>
          ))}
        </ul>
      )}
      <p className={styles.more}>
        <Link href="/notifications">All notifications</Link>
      </p>
    </section>
  );
}
