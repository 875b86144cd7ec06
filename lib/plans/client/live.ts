/** Plans' half of the live stream in the browser (the server's: lib/plans/live.ts), listed in lib/registry/live-client.ts. */
import "client-only";
import { invalidate } from "@/lib/live/client/use-live";
import type { LiveClientFeature } from "@/lib/live/client/stream";
import { conversationPlansKey, PLANS_KEY, UPCOMING_PLANS_KEY } from "./api";

export const plansLiveClient: LiveClientFeature = {
  feeds: [PLANS_KEY],
  events: {
    plan(data) {
      // A plan proposed, changed, answered, cancelled or confirmed as where they met: its conversation's cards and 'Upcoming' load again.
      const { conversationId } = data as { conversationId: string };
      invalidate(conversationPlansKey(conversationId));
      invalidate(UPCOMING_PLANS_KEY);
    },
  },
};
