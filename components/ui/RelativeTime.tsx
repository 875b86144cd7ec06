import { formatNotificationTime } from "@/lib/notifications/rules";

/** "5 minutes ago", as the notifications say it, with the exact time for machines and on hover. */
export function RelativeTime({ at }: { at: string }) {
  const date = new Date(at);
  return (
    <time dateTime={date.toISOString()} title={date.toLocaleString("en")} suppressHydrationWarning>
      {formatNotificationTime(date)}
    </time>
  );
}
