import type { Metadata } from "next";
import { AuthCard } from "@/components/ui/AuthCard";
import { SharedPlanView } from "@/components/plans/SharedPlanView";
import { sharedPlan } from "@/lib/plans/share";
import { withDb } from "@/lib/with-db";

// A private link: never indexed, never sent on as a referrer.
export const metadata: Metadata = { title: "A shared plan", referrer: "no-referrer", robots: { index: false, follow: false } };

/** A plan shared with a friend: read-only, no account needed; an unknown, revoked or expired link says so. */
export default async function SharedPlanPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const plan = await withDb((db) => sharedPlan(db, token));
  return (
    <AuthCard title={plan ? plan.title : "This link does not work"}>
      {plan ? <SharedPlanView plan={plan} /> : <p>This link has expired or was turned off. Ask your friend for a new one.</p>}
    </AuthCard>
  );
}
