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
  const [initial, upcoming] = await withDb(async (db) => {
    const conversations = await inbox(db, couple, undefined);
    const requests = await withSenderFacts(db, userId, await listRequests(db, couple, "incoming"));
    return [{ conversations, requests }, await upcomingPlans(db, couple)] as const;
  });
  const pushKey = vapidKeys()?.publicKey;
  const prompt = pushKey && (await withDb((db) => pushPromptDue(db, userId, couple.coupleId)));
  return (
    <MessagesShell
      viewer={{ userId, coupleId: couple.coupleId }}
      initial={initial}
      prompt={prompt ? <PushPrompt publicKey={pushKey} /> : null}
      upcoming={<UpcomingPlans initial={upcoming.map(upcomingPlan)} />}
    >
      {children}
    </MessagesShell>
  );
}
