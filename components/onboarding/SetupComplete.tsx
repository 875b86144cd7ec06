"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { leaveWithFreshSession } from "@/components/auth/leaveWithFreshSession";
import { nextMove, type OnboardingRole } from "@/lib/onboarding/router";
import styles from "./SetupComplete.module.css";

/** A finished profile has nothing left here: the session's flags are brought up to date, then where the router leads. */
export function SetupComplete({ role }: { role: OnboardingRole }) {
  const router = useRouter();
  useEffect(() => {
    const move = nextMove("complete", role);
    if (move?.kind !== "leave") return;
    let current = true;
    // Navigating after unmount would move a user who already went elsewhere.
    const guarded = { push: (to: string) => current && router.push(to), replace: (to: string) => current && router.replace(to) };
    void leaveWithFreshSession(guarded, move.to, { replace: move.replace });
    return () => {
      current = false;
    };
  }, [router, role]);
  return (
    <main id="main" className={styles.complete}>
      <p className={styles.text} role="status">
        Setup complete! Redirecting...
      </p>
    </main>
  );
}
