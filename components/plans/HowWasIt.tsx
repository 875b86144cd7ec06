"use client";

import { useRef, useState } from "react";
import { ReportDialog } from "@/components/safety/SafetyDialogs";
import { Dialog } from "@/components/ui/Dialog";
import { giveFeedback } from "@/lib/plans/client/api";
import { againFrom } from "@/lib/plans/form-values";
import { FEEDBACK_ANSWERS, FEEDBACK_LABELS } from "@/lib/plans/rules";
import type { PlanView } from "@/lib/plans/view";
import { MetOn } from "./MetOn";
import { PlanForm } from "./LazyPlanForm";
import styles from "./Plans.module.css";

/**
 * After the meetup: 'You met on 14 Dec' when both couples said 'Great' (with 'Plan again', the
 * last plan's what and where as a start), and 'How was it?' once for
 * the viewer, privately; 'Something went wrong' opens the report flow with the plan attached.
 */
export function HowWasIt({ plan }: { plan: PlanView }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [report, setReport] = useState<string | null>(null);
  const [again, setAgain] = useState(false);
  const after = useRef<HTMLDivElement>(null);
  // The answer that opened the report is gone once saved: focus comes back to what replaced it.
  const closeReport = () => {
    setReport(null);
    requestAnimationFrame(() => after.current?.focus());
  };
  return (
    <div ref={after} className={styles.after} tabIndex={-1}>
      {plan.metOn && (
        <div className={styles.actions}>
          <MetOn date={plan.metOn} />
          <button type="button" className="button button-secondary" onClick={() => setAgain(true)}>
            Plan again
          </button>
          <Dialog open={again} onClose={() => setAgain(false)} title="Plan a meetup" closeButton>
            {again && (
              <PlanForm
                conversationId={plan.conversationId}
                plan={null}
                start={{ values: againFrom(plan), placeName: [plan.place.name, plan.place.country].filter(Boolean).join(", ") }}
                onDone={() => setAgain(false)}
                onEnded={() => setAgain(false)}
              />
            )}
          </Dialog>
        </div>
      )}
      {plan.yourFeedback ? (
        <p className="field-hint">Thanks for telling us how it was: only you see your answer.</p>
      ) : (
        <fieldset className={styles.feedback}>
          <legend>How was it? Only you see your answer.</legend>
          {FEEDBACK_ANSWERS.map((answer) => (
            <button
              key={answer}
              type="button"
              className="button button-secondary"
              disabled={busy}
              onClick={() => {
                setBusy(true);
                setError(null);
                giveFeedback(plan.id, answer)
                  .then((result) => setReport(result.report?.targetId ?? null))
                  .catch((failure: unknown) => setError(failure instanceof Error ? failure.message : "Could not save your answer"))
                  .finally(() => setBusy(false));
              }}
            >
              {FEEDBACK_LABELS[answer]}
            </button>
          ))}
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
        </fieldset>
      )}
      {report && <ReportDialog open onClose={closeReport} targetType="plan" targetId={report} />}
    </div>
  );
}
