import type { Metadata } from "next";
import { OnboardingFlow } from "@/components/onboarding/OnboardingFlow";
import { getDb } from "@/db/client";
import { requireSignedIn } from "@/lib/auth/current-session";
import { loadOnboardingState } from "@/lib/onboarding/state";

export const metadata: Metadata = { title: "Onboarding" };

/** Onboarding steps 1 and 2 (the layout has already required a signed-in, verified user). */
export default async function OnboardingPage() {
  const { userId } = await requireSignedIn();
  const state = await loadOnboardingState(await getDb(), userId);
  return <OnboardingFlow {...state} />;
}
