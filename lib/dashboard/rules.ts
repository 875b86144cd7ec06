/**
 * The dashboard's profile completion card (spec section 5): the percentage exactly as
 * lib/profile/rules.ts computes it (33 + 33 + 34), with what is still missing and where to fix it.
 * Pure and browser-safe.
 */
import { completionParts, type CompletionPart, type CompletionUser } from "@/lib/profile/rules";

export type CompletionStep = { label: string; done: boolean; points: number; fix: { text: string; href: string } };

export type Completion = { percentage: number; complete: boolean; steps: CompletionStep[]; missing: CompletionStep[] };

/** What each part of the completion is called, and where to fix it. */
function describe(key: CompletionPart["key"], hasCouple: boolean): Pick<CompletionStep, "label" | "fix"> {
  if (key === "basics")
    return { label: "Your first name, last name and date of birth", fix: { text: "Add your name and date of birth", href: "/settings" } };
  if (key === "about")
    return { label: "A bio, your interests or a profile photo", fix: { text: "Add a bio, interests or a photo", href: "/settings" } };
  return {
    label: "An active couple profile",
    fix: hasCouple ? { text: "See your couple profile", href: "/profile" } : { text: "Create your couple profile", href: "/onboarding" },
  };
}

/** The steps are lib/profile/rules.ts's completion parts (one rule for the percentage and the card). */
export function profileCompletion(user: CompletionUser, couple: { status: string } | null): Completion {
  const steps: CompletionStep[] = completionParts(user, couple).map((part) => ({
    ...describe(part.key, couple !== null),
    done: part.done,
    points: part.points,
  }));
  const percentage = steps.reduce((sum, step) => sum + (step.done ? step.points : 0), 0);
  return { percentage, complete: percentage === 100, steps, missing: steps.filter((step) => !step.done) };
}

/**
 * 'Welcome' is a person's first visit (partner A's, and partner B's own when they join), 'Welcome
 * back' every visit after. A visit lasts a while: the page renders again after an action on it
 * (resending the invitation) and must not turn into a 'back' within the same visit.
 */
export const WELCOME_VISIT_MS = 30 * 60 * 1000;

export const greeting = (welcomedAt: Date, now: Date): "Welcome" | "Welcome back" =>
  now.getTime() - welcomedAt.getTime() < WELCOME_VISIT_MS ? "Welcome" : "Welcome back";
