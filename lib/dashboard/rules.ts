/**
 * The dashboard's profile completion card (spec section 5): the percentage exactly as
 * lib/profile/rules.ts computes it (33 + 33 + 34), with what is still missing and where to fix it.
 * Pure and browser-safe.
 */
import { profileCompletionPercentage, type CompletionUser } from "@/lib/profile/rules";

export type CompletionStep = { label: string; done: boolean; points: number; fix: { text: string; href: string } };

export type Completion = { percentage: number; complete: boolean; steps: CompletionStep[]; missing: CompletionStep[] };

export function profileCompletion(user: CompletionUser, couple: { status: string } | null): Completion {
  const steps: CompletionStep[] = [
    {
      label: "Your first name, last name and date of birth",
      done: Boolean(user.firstName && user.lastName && user.dateOfBirth),
      points: 33,
      fix: { text: "Add your name and date of birth", href: "/settings" },
    },
    {
      label: "A bio, your interests or a profile photo",
      done: Boolean(user.bio?.trim() || (user.interests?.length ?? 0) > 0 || user.avatarUrl),
      points: 33,
      fix: { text: "Add a bio, interests or a photo", href: "/settings" },
    },
    {
      label: "An active couple profile",
      done: couple?.status === "active",
      points: 34,
      fix: couple ? { text: "See your couple profile", href: "/profile" } : { text: "Create your couple profile", href: "/onboarding" },
    },
  ];
  const percentage = profileCompletionPercentage(user, couple);
  return { percentage, complete: percentage === 100, steps, missing: steps.filter((step) => !step.done) };
}
