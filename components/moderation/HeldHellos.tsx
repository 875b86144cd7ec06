"use client";

import { useState } from "react";
import { Alert } from "@/components/ui/Alert";
import { RelativeTime } from "@/components/ui/RelativeTime";
import { decideHeldHelloAction } from "@/app/(app)/moderation/actions";
import type { HeldDecision } from "@/lib/safety/spam-rules";
import styles from "./Moderation.module.css";
import { reach } from "@/lib/transport/actions";

type HeldHello = { id: string; toCouple: { id: string; coupleName: string }; note: string; createdAt: string };

/**
 * A couple's held hellos: deliver one to the asked couple as a normal request, or drop it (logged;
 * the sender is not told which). Not `decidable` where another moderator decides (`leftToAnother`).
 */
export function HeldHellos({ held, decidable }: { held: HeldHello[]; decidable: boolean }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function decide(id: string, decision: HeldDecision) {
    setBusy(id);
    setError(null);
    const done = await reach(() => decideHeldHelloAction(id, decision));
    if (!done.ok) setError(done.message);
    setBusy(null);
  }
  if (held.length === 0) return <p>None.</p>;
  return (
    <>
      {error && <Alert tone="error">{error}</Alert>}
      <ul className={styles.list}>
        {held.map((hello) => (
          <li key={hello.id} className="card">
            <p>
              To {hello.toCouple.coupleName} · <RelativeTime at={hello.createdAt} />
            </p>
            <p className={styles.note}>{hello.note}</p>
            {decidable && (
              <div className="form-actions">
                <button
                  type="button"
                  className="button button-secondary"
                  disabled={busy === hello.id}
                  onClick={() => decide(hello.id, "deliver")}
                >
                  Deliver
                </button>
                <button
                  type="button"
                  className="button button-danger"
                  disabled={busy === hello.id}
                  onClick={() => decide(hello.id, "drop")}
                >
                  Drop
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
