import { formatNotificationTime, type NotificationItem } from "@/lib/notifications/rules";

const fullDate = new Intl.DateTimeFormat("en", { dateStyle: "full", timeStyle: "short" });

function initials(name: string): string {
  return name
    .split(/\s*&\s*|\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join("&");
}

/**
 * One notification: who (picture or initials, couple name), what (title, message) and when.
 * Unread ones carry a visible "New" label and a bold title, not a colour alone.
 */
export function NotificationSummary({ item }: { item: NotificationItem }) {
  const name = item.actor_couple_name;
  return (
    <span className={`notification-summary${item.is_read ? "" : " is-unread"}`}>
      {item.actor_profile_image_url ? (
        // Uploaded pictures are already resized by the image pipeline; next/image would resize again.
        // eslint-disable-next-line @next/next/no-img-element
        <img className="notification-avatar" src={item.actor_profile_image_url} alt="" width={40} height={40} />
      ) : name ? (
        <span className="notification-avatar" aria-hidden="true">
          {initials(name)}
        </span>
      ) : null}
      <span className="notification-body">
        <span className="notification-title">
          {!item.is_read && <span className="notification-new">New</span>}
          {item.title}
        </span>
        <span className="notification-message">{item.message}</span>
        <span className="notification-meta">
          {name && <span>{name} · </span>}
          <time dateTime={item.created_at} title={fullDate.format(new Date(item.created_at))}>
            {formatNotificationTime(item.created_at)}
          </time>
        </span>
      </span>
    </span>
  );
}
