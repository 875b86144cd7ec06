import { redirect } from "next/navigation";

/** Onboarding steps live on /onboarding itself; deeper paths lead there. */
export default function OnboardingStepPage() {
  redirect("/onboarding");
}
