import type { Metadata } from "next";
import { OnboardingFlow } from "@/components/onboarding/OnboardingFlow";
import { requireSignedIn } from "@/lib/auth/current-session";
import { loadOnboardingState } from "@/lib/onboarding/queries";
import { withDb } from "@/lib/with-db";

export const metadata: Metadata = { title: "Onboarding" };

/** Onboarding steps 1 and 2 (the layout has already required a signed-in, verified user). */
export default async function OnboardingPage() {
  const { userId } = await requireSignedIn();
  const state = await withDb((db) => loadOnboardingState(db, userId));
  return <OnboardingFlow {...state} />;
}
