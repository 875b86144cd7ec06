"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert } from "@/components/ui/Alert";
import { acknowledgeWarningAction } from "@/app/(app)/standing-actions";
import { guidelineLabel, SAFETY_PAGE, type StandingSanction } from "@/lib/safety/rules";
import { reach } from "@/lib/transport/actions";

/** A moderators' warning, shown once before anything else: the page waits until a partner has read it. */
export function WarningNotice({ warning }: { warning: StandingSanction }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function acknowledge() {
    setBusy(true);
    const result = await reach(() => acknowledgeWarningAction(warning.id));
    if (!result.ok) setError(result.message ?? "Could not save that. Please try again.");
    // The layout reads the couple's standing again: the warning is gone, the page shows.
    else router.refresh();
    setBusy(false);
  }
  return (
    <main id="main" className="page">
      {/* The page itself, not a dialog over one: nothing else is shown until it is read. */}
      <section className="card" aria-labelledby="warning-title">
        <h1 id="warning-title">A warning from our moderators</h1>
        <p>
          Our moderators warn your couple for breaking the community guideline &lsquo;{guidelineLabel(warning.reason)}&rsquo;. Please read
          the <Link href="/guidelines">community guidelines</Link>; breaking them again may restrict or suspend your couple. If you think
          this is a mistake, you can appeal once: <Link href={SAFETY_PAGE}>how moderation works</Link>.
        </p>
        {error && <Alert tone="error">{error}</Alert>}
        <div className="form-actions">
          <button type="button" className="button button-primary" onClick={acknowledge} disabled={busy}>
            I understand
          </button>
        </div>
      </section>
    </main>
  );
}
