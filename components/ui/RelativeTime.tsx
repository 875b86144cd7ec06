"use client";

import { formatNotificationTime } from "@/lib/notifications/rules";
import { useClock } from "./useClock";

const fullDate = new Intl.DateTimeFormat("en", { dateStyle: "full", timeStyle: "short" });

/**
 * "5 minutes ago", as the notifications say it, with the exact time for machines and on hover. It
 * reads again as the clock ticks (useClock), not only when its data changes. The minutes go on
 * between the server's render and hydration ('just now', then '1 minute ago'): a text that differs
 * there would fail the page's hydration (React #418), so it may. The exact time is the reader's
 * zone's, so only the browser writes it (hydration keeps an attribute the server wrote in its own).
 */
export function RelativeTime({ at }: { at: string }) {
  const hydrated = useClock() !== 0;
  const date = new Date(at);
  return (
    <time dateTime={date.toISOString()} title={hydrated ? fullDate.format(date) : undefined} suppressHydrationWarning>
      {formatNotificationTime(date)}
    </time>
  );
}
