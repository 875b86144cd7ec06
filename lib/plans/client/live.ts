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
    connection(data) {
      // Connections' kind (lib/connections/live.ts), applied by messaging too. A conversation that
      // ended (a block, a suspension, a couple gone) cancelled its upcoming plans, and their own
      // `plan` rows reach nobody across its end: its cards and 'Upcoming' load again. A request's
      // change (it names no `ended`) leaves the plans as they are.
      const { conversationId, ended } = data as { conversationId?: string | null; ended?: boolean };
      if (!conversationId || ended === undefined) return;
      invalidate(conversationPlansKey(conversationId));
      invalidate(UPCOMING_PLANS_KEY);
    },
  },
};
