"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { refreshSessionAction } from "@/app/(auth)/actions";

/** A finished profile has nothing left here: the session's flags are brought up to date, then the dashboard. */
export function SetupComplete() {
  const router = useRouter();
  useEffect(() => {
    let current = true;
    void refreshSessionAction()
      .catch(() => undefined)
      .then(() => {
        if (current) router.replace("/dashboard");
      });
    return () => {
      current = false;
    };
  }, [router]);
  return (
    <main id="main" className="onboarding-page onboarding-complete">
      <p className="onboarding-complete-text" role="status">
        Setup complete! Redirecting...
      </p>
    </main>
  );
}
