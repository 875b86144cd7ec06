/**
 * The bell's half of the live stream (the server's: ./live.ts), listed in lib/registry/live-client.ts.
 */
import "client-only";
import { invalidate, push } from "@/lib/live/client/use-live";
import type { LiveClientFeature } from "@/lib/live/client/stream";
import { LISTS_KEY, NOTIFICATIONS_KEY, UNREAD_KEY } from "./client";

export const notificationsLiveClient: LiveClientFeature = {
  feeds: [NOTIFICATIONS_KEY],
  counts: { notifications: UNREAD_KEY },
  events: {
    notification(data) {
      push(UNREAD_KEY, (data as { unread_count: number }).unread_count);
      invalidate(LISTS_KEY);
    },
  },
};
