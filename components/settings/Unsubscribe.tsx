"use client";

import { useState } from "react";
import { Alert } from "@/components/ui/Alert";
import { ApiError } from "@/lib/transport/client";
import { definitionOf, type NotificationKind } from "@/lib/notifications/rules";
import { unsubscribe } from "@/lib/settings/client/api";

/** The e-mail's unsubscribe link: one button, no sign-in (a link scanner opening the page changes nothing). */
export function Unsubscribe({ token }: { token: string }) {
  const [state, setState] = useState<
    { kind: "idle" | "pending" } | { kind: "done"; type: NotificationKind } | { kind: "error"; message: string }
  >({ kind: "idle" });
  if (!token) return <Alert tone="error">This unsubscribe link is not valid.</Alert>;
  if (state.kind === "done") {
    return (
      <Alert tone="success">{`You will no longer get e-mails for: ${definitionOf(state.type).label}. You can change this any time in Settings.`}</Alert>
    );
  }
  const confirm = async () => {
    setState({ kind: "pending" });
    try {
      setState({ kind: "done", type: await unsubscribe(token) });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setState({ kind: "error", message: error.message });
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
