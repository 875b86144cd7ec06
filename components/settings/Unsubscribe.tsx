"use client";

import { useState } from "react";
import { Alert } from "@/components/ui/Alert";
import { NOTIFICATION_TYPE_LABELS, type NotificationKind } from "@/lib/notifications/rules";

/** The e-mail's unsubscribe link: one button, no sign-in (a link scanner opening the page changes nothing). */
export function Unsubscribe({ token }: { token: string }) {
  const [state, setState] = useState<
    { kind: "idle" | "pending" } | { kind: "done"; type: NotificationKind } | { kind: "error"; message: string }
  >({ kind: "idle" });
  if (!token) return <Alert tone="error">This unsubscribe link is not valid.</Alert>;
  if (state.kind === "done") {
    return (
      <Alert tone="success">{`You will no longer get e-mails for: ${NOTIFICATION_TYPE_LABELS[state.type].label}. You can change this any time in Settings.`}</Alert>
    );
  }
  const confirm = async () => {
    setState({ kind: "pending" });
    try {
      const response = await fetch(`/api/notifications/unsubscribe?token=${encodeURIComponent(token)}`, {
        method: "POST",
        headers: { Accept: "application/json" },
      });
      const json = (await response.json().catch(() => null)) as { type?: NotificationKind; error?: { message?: string } } | null;
      if (response.ok && json?.type) return setState({ kind: "done", type: json.type });
      setState({ kind: "error", message: json?.error?.message ?? "Something went wrong. Please try again." });
    } catch {
      setState({ kind: "error", message: "We could not reach the server. Please try again." });
    }
  };
  return (
    <>
      {state.kind === "error" && <Alert tone="error">{state.message}</Alert>}
      <button type="button" className="button button-primary" onClick={confirm} disabled={state.kind === "pending"}>
        {state.kind === "pending" ? "Unsubscribing..." : "Unsubscribe"}
      </button>
    </>
  );
}
