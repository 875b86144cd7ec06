/**
 * The onboarding router (spec section 4): which step a user sees and where each step leads.
 * Pure, so every row of the spec has a unit test; OnboardingFlow only carries the moves out.
 */

export type OnboardingStep = "step1" | "step2" | "complete";
/** Role in the couple; "unknown" (no couple yet) is treated as partner A. */
export type OnboardingRole = "partner_a" | "partner_b" | "unknown";

export type CoupleIds = { partner1Id: string; partner2Id: string | null };

export function roleOf(userId: string, couple: CoupleIds | null): OnboardingRole {
  if (couple?.partner1Id === userId) return "partner_a";
  if (couple?.partner2Id === userId) return "partner_b";
  return "unknown";
}

export type StartFacts = { role: OnboardingRole; profileComplete: boolean; step1Saved: boolean };

/**
 * A complete profile has nothing left to do. Step 1 is the default; partner A whose step 1 is
 * already saved (a reload on step 2) resumes on step 2 and may still go back.
 */
export function initialStep({ role, profileComplete, step1Saved }: StartFacts): OnboardingStep {
  if (profileComplete) return "complete";
  return step1Saved && role !== "partner_b" ? "step2" : "step1";
}

/** Where partner B lands once set up: the dashboard, with a welcome to their couple. */
export const PARTNER_WELCOME = "/dashboard?welcome=partner";

export type Move =
  | { kind: "step"; step: OnboardingStep }
  /** Leaves onboarding: `replace` keeps the finished steps out of the history. */
  | { kind: "leave"; to: string; replace: boolean; bypassProfileCheck: boolean };

/** Where a successful step leads; null where the spec allows no next move. */
export function nextMove(step: OnboardingStep, role: OnboardingRole): Move | null {
  switch (step) {
    case "step1":
      // Partner B joined an existing couple: step 2 is not theirs.
      return role === "partner_b"
        ? { kind: "leave", to: PARTNER_WELCOME, replace: true, bypassProfileCheck: true }
        : { kind: "step", step: "step2" };
    case "step2":
      // The couple exists now: partner A invites the partner next (spec: couple step submit).
      return role === "partner_b" ? null : { kind: "leave", to: "/invite-partner", replace: false, bypassProfileCheck: false };
    case "complete":
      return { kind: "leave", to: "/dashboard", replace: true, bypassProfileCheck: false };
  }
}

/** Back is allowed only from step 2 to step 1. */
export const previousStep = (step: OnboardingStep): OnboardingStep | null => (step === "step2" ? "step1" : null);
