"use client";

import Link from "next/link";
import { useState } from "react";
import { Alert } from "@/components/ui/Alert";
import { confirmEmailChange } from "@/lib/auth/client/api";
import { ApiError } from "@/lib/transport/client";

/**
 * The new address's link: one button (a link scanner opening the page changes nothing), under the
 * address the account moves to (`newEmail`, read on the server for the signed-in account's own
 * pending change; null when the link is not theirs or no longer works), so the owner can tell a
 * change they never asked for.
 */
export function ConfirmEmailChange({ token, newEmail }: { token: string; newEmail: string | null }) {
  const [state, setState] = useState<{ kind: "idle" | "pending" } | { kind: "done"; email: string } | { kind: "error"; message: string }>({
    kind: "idle",
  });

  if (state.kind === "done") {
    return (
      <>
        <Alert tone="success">Your email is now {state.email}. Use it the next time you sign in.</Alert>
        <Link href="/settings/security">Back to security settings</Link>
      </>
    );
  }
  if (!token || newEmail === null)
    return <Alert tone="error">This link is invalid or has expired. Please ask for a new one in your security settings.</Alert>;
  const confirm = async () => {
    setState({ kind: "pending" });
    try {
      setState({ kind: "done", email: await confirmEmailChange(token) });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setState({ kind: "error", message: error.message });
    }
  };
  return (
    <>
      {state.kind === "error" && <Alert tone="error">{state.message}</Alert>}
      <p>Confirm that you want to sign in with this new email address from now on:</p>
      <p>
        <strong>{newEmail}</strong>
      </p>
      <button type="button" className="button button-primary" onClick={confirm} disabled={state.kind === "pending"}>
        {state.kind === "pending" ? "Confirming..." : "Confirm my new email"}
      </button>
    </>
  );
}
