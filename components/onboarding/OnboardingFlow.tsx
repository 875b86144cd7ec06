"use client";

import dynamic from "next/dynamic";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { leaveWithFreshSession } from "@/components/auth/leaveWithFreshSession";
import { useBrowserValue } from "@/components/ui/useBrowserValue";
import { nextMove, previousStep, type Move, type OnboardingStep } from "@/lib/onboarding/router";
import type { OnboardingState } from "@/lib/onboarding/queries";
import { markRegistrationComplete } from "@/lib/registration/client-storage";
import { ProgressIndicator } from "./ProgressIndicator";
import { SetupComplete } from "./SetupComplete";
import type { Step1Saved } from "./Step1Form";
import styles from "./OnboardingFlow.module.css";

/**
 * The step forms (react-hook-form, zod for the drafts and checks, the pickers) load after
 * hydration: the server cannot render them anyway (they start from session-storage drafts), so
 * the page's first paint ships none of them and shows the same "Loading..." meanwhile.
 */
const loading = () => <p className={styles.loading}>Loading...</p>;
const Step1Form = dynamic(() => import("./Step1Form").then((m) => m.Step1Form), { ssr: false, loading });
const Step2Form = dynamic(() => import("./Step2Form").then((m) => m.Step2Form), { ssr: false, loading });
// Step 1 is where nearly everyone lands: its code starts loading as this module runs, alongside
// hydration rather than after it (the largest paint of the page is that form's).
if (typeof window !== "undefined") void import("./Step1Form");

const TITLES = { step1: "Tell us about yourself", step2: "Create your couple profile" } as const;
/** What each step is for and who sees it, painted with the page while the form's code loads. */
const INTROS = {
  step1:
    "A few things about you. Other couples see your first name and age, never your last name, e-mail or date of birth, and your place at city level until you choose otherwise in Settings.",
  step2: "Now the two of you together: your couple name, photos, adventure styles and a few words about you.",
} as const;

/** True once running in the browser: the forms start from drafts in session storage, which the server cannot read. */
const useInBrowser = () => useBrowserValue(() => true, false);

/** The onboarding router on screen (spec section 4): the current step, its moves, focus and scroll. */
export function OnboardingFlow({ userId, role, step: startStep, saved: savedAtLoad, interestCategories }: OnboardingState) {
  const router = useRouter();
  const inBrowser = useInBrowser();
  const [step, setStep] = useState<OnboardingStep>(startStep);
  const [saved, setSaved] = useState(savedAtLoad);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);

  // After a move (not on arrival) the new step starts at the top, with focus on its heading.
  useEffect(() => {
    if (!moved.current) return;
    window.scrollTo({ top: 0 });
    headingRef.current?.focus();
  }, [step]);

  async function follow(move: Move | null) {
    if (!move) return;
    if (move.kind === "step") {
      moved.current = true;
      setStep(move.step);
      return;
    }
    if (move.bypassProfileCheck) markRegistrationComplete();
    await leaveWithFreshSession(router, move.to, { replace: move.replace });
  }

  const step1Saved = ({ saved, isPartnerB }: Step1Saved) => {
    setSaved(saved);
    return follow(nextMove("step1", isPartnerB ? "partner_b" : role));
  };

  if (step === "complete") return <SetupComplete role={role} />;
  return (
    <main id="main" className={styles.page}>
      <div className={styles.card}>
        <p className={styles.wave}>Join the First Wave</p>
        <ProgressIndicator step={step === "step1" ? 1 : 2} onlyStep1={role === "partner_b"} />
        <h1 ref={headingRef} tabIndex={-1} className={styles.title}>
          {TITLES[step]}
        </h1>
        <p className={styles.intro}>{INTROS[step]}</p>
        {!inBrowser ? (
          loading()
        ) : step === "step1" ? (
          <Step1Form userId={userId} categories={interestCategories} saved={saved} onSaved={step1Saved} />
        ) : (
          <Step2Form
            userId={userId}
            onBack={() => {
              const back = previousStep(step);
              if (back) void follow({ kind: "step", step: back });
            }}
            onSaved={() => follow(nextMove("step2", role))}
          />
        )}
      </div>
    </main>
  );
}
