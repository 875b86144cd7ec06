import "server-only";
import type { LiveFeature, LiveKind, RenderContext } from "@/lib/live/kinds";
import { latestNotifications, unreadCount } from "./queries";

/**
 * Notifications' live kind and count (registered in lib/registry/live.ts): the bell's number and
 * its newest row, by the list's rule (`own`: none from a couple blocked either way or suspended).
 */

const unread = (context: RenderContext) => context.once("notifications:unread", () => unreadCount(context.db, context.userId));

/** A notification written, updated or read: the bell's state now (subject: the notification, when one was written). */
export const NOTIFICATION: LiveKind = {
  name: "notification",
  event: "notification",
  changesCounts: true,
  latestOnly: true,
  async render(context, rows) {
    const [count, newest] = await Promise.all([unread(context), latestNotifications(context.db, context.userId, 1)]);
    return rows.map(() => ({ unread_count: count, newest: newest[0] ?? null }));
  },
};

export const notificationsLive: LiveFeature = { kinds: [NOTIFICATION], counts: [{ name: "notifications", read: unread }] };
