import Link from "next/link";
import type { NotificationView } from "@/lib/notifications/rules";
import { FacePhoto } from "@/components/ui/FacePhoto";
import { RelativeTime } from "@/components/ui/RelativeTime";
import styles from "./NotificationSummary.module.css";

/**
 * One notification: who (their photo or the placeholder, their couple's name, or 'Your partner'
 * when the reader's partner acted: the title names them), what (title, message) and when.
 * Unread ones carry a visible "New" label and a bold title, not a colour alone. `compact` (the
 * bell) keeps the message to two lines.
 */
export function NotificationSummary({ item, compact = false }: { item: NotificationView; compact?: boolean }) {
  const name = item.actor_couple_name;
  const classes = [styles.summary, !item.is_read && styles.unread, compact && styles.compact].filter(Boolean).join(" ");
  return (
    <span className={classes}>
      {(item.actor_profile_image_url || name) && <FacePhoto src={item.actor_profile_image_url} size={40} className={styles.avatar} />}
      <span className={styles.body}>
        <span className={styles.title}>
          {!item.is_read && <span className={styles.new}>New</span>}
          {item.title}
        </span>
        <span className={styles.message}>{item.message}</span>
        <span className={styles.meta}>
          {item.actor_is_partner ? <span>Your partner · </span> : name && <span>{name} · </span>}
          <RelativeTime at={item.created_at} />
        </span>
      </span>
    </span>
  );
}

type LinkProps = { item: NotificationView; href: string; onClick: () => void; compact?: boolean; className?: string };

/**
 * A notification as the link to what it is about (its post, or the notifications page). Not
 * prefetched: what it opens is rendered per request (CoupleCard's rule).
 */
export function NotificationLink({ item, href, onClick, compact, className }: LinkProps) {
  return (
    <Link href={href} className={className ? `${styles.link} ${className}` : styles.link} onClick={onClick} prefetch={false}>
      <NotificationSummary item={item} compact={compact} />
    </Link>
  );
}
