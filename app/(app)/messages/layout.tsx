import type { ReactNode } from "react";
import { MessagesShell } from "@/components/messages/MessagesShell";
import { PushPrompt } from "@/components/notifications/PushPrompt";
import { UpcomingPlans } from "@/components/plans/UpcomingPlans";
import { requireCompleteProfile } from "@/lib/auth/current-session";
import { listRequests } from "@/lib/connections/queries";
import { withSenderFacts } from "@/lib/connections/sender-facts";
import { inbox } from "@/lib/messages/inbox";
import { vapidKeys } from "@/lib/notifications/push/config";
import { pushPromptDue } from "@/lib/notifications/push/subscriptions";
import { upcomingPlans } from "@/lib/plans/queries";
import { upcomingPlan } from "@/lib/plans/view";
import { withDb } from "@/lib/with-db";

/** The inbox (first painted as the server read it) beside whatever is open: a thread, or nothing yet; one screen each on a phone. */
export default async function MessagesLayout({ children }: { children: ReactNode }) {
  const { userId, couple } = await requireCompleteProfile();
  const pushKey = vapidKeys()?.publicKey;
  // Side by side: none waits on another.
  const [conversations, requests, upcoming, prompt] = await withDb((db) =>
    Promise.all([
      inbox(db, couple, undefined),
      listRequests(db, couple, "incoming").then((incoming) => withSenderFacts(db, userId, incoming)),
      upcomingPlans(db, couple),
      pushKey ? pushPromptDue(db, userId, couple.coupleId) : false,
    ]),
  );
  const initial = { conversations, requests };
  return (
    <MessagesShell
      viewer={{ userId, coupleId: couple.coupleId }}
      initial={initial}
      prompt={prompt && pushKey ? <PushPrompt publicKey={pushKey} /> : null}
      upcoming={<UpcomingPlans initial={upcoming.map(upcomingPlan)} />}
    >
      {children}
    </MessagesShell>
  );
}
