"use client";

import { formatNotificationTime } from "@/lib/notifications/rules";
import { useClock } from "./useClock";

const fullDate = new Intl.DateTimeFormat("en", { dateStyle: "full", timeStyle: "short" });

/**
 * "5 minutes ago", as the notifications say it, with the exact time for machines and on hover. It
 * reads again as the clock ticks (useClock), not only when its data changes. The minutes go on
 * between the server's render and hydration ('just now', then '1 minute ago'): a text that differs
 * there would fail the page's hydration (React #418), so it may, and the clock's first tick after
 * hydration puts it right.
 */
export function RelativeTime({ at }: { at: string }) {
  useClock();
  const date = new Date(at);
  return (
    <time dateTime={date.toISOString()} title={fullDate.format(date)} suppressHydrationWarning>
      {formatNotificationTime(date)}
    </time>
  );
}
