"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { joinWithAccountAction } from "@/app/invitation/accept/actions";
import { Alert } from "@/components/ui/Alert";
import { rememberAccount } from "@/lib/registration/client-storage";
import { MESSAGES } from "@/lib/invitations/rules";
import styles from "./InvitationJoin.module.css";
import { reach } from "@/lib/transport/actions";

/**
 * The invited partner is signed in already (they had an account): one button joins that account
 * to the couple, then on to onboarding, or the dashboard when their profile is complete.
 */
export function JoinWithAccount({ token, email, coupleName }: { token: string; email: string; coupleName: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const join = async () => {
    setBusy(true);
    setError(null);
    const result = await reach(() => joinWithAccountAction(token), MESSAGES.acceptFailed);
    if (result.ok) {
      rememberAccount(result);
      router.replace(result.destination);
      return;
    }
    setError(result.message);
    setBusy(false);
  };

  return (
    <>
      {error && <Alert tone="error">{error}</Alert>}
      <p className={styles.email}>
        You&apos;re signed in as <strong>{email}</strong>
      </p>
      <button type="button" className="button button-primary button-block" disabled={busy} onClick={() => void join()}>
        {busy ? "Joining..." : `Join ${coupleName}`}
      </button>
    </>
  );
}
