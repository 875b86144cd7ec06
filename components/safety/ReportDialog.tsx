"use client";

import { useState } from "react";
import { useWatch } from "react-hook-form";
import { useZodForm } from "@/components/forms/useZodForm";
import { Dialog } from "@/components/ui/Dialog";
import { Alert } from "@/components/ui/Alert";
import { FormActions } from "@/components/ui/FormActions";
import { FORUM_TEXTS, REPORT_NOTE_MAX, REPORT_REASONS, type ReportTargetType } from "@/lib/forum/rules";
import { sendReport } from "@/lib/forum/client/api";
import { ApiError } from "@/lib/transport/client";

type Props = { open: boolean; onClose(): void; targetType: ReportTargetType; targetId: string };

const loadSchema = () => import("@/lib/forum/schemas").then((schemas) => schemas.reportFormSchema);

/** 'Report': a reason (spam, harassment, inappropriate, other) and an optional note, then thanks. */
export function ReportDialog({ open, onClose, targetType, targetId }: Props) {
  const [sent, setSent] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    control,
    formState: { errors, isSubmitting: busy },
  } = useZodForm(loadSchema, { note: "" }, "on-submit");
  const note = useWatch({ control, name: "note" });
  // A missing reason is said where the call's failure is: above the reasons.
  const error = errors.reason?.message ?? failed;

  const submit = handleSubmit(async ({ reason, note }) => {
    setFailed(null);
    try {
      await sendReport({ targetType, targetId, reason, note: note.trim() || undefined });
      setSent(true);
    } catch (failure) {
      // A second report of the same target is already in the team's hands: thank them the same.
      if (failure instanceof ApiError && failure.code === "ALREADY_REPORTED") setSent(true);
      else setFailed(failure instanceof Error ? failure.message : "Could not send your report");
    }
  });

  return (
    <Dialog open={open} onClose={onClose} title="Report" closeButton>
      {sent ? (
        <>
          <p role="status">{FORUM_TEXTS.reportThanks}</p>
          <button type="button" className="button button-primary" onClick={onClose} autoFocus>
            Close
          </button>
        </>
      ) : (
        <form onSubmit={submit} noValidate>
          {error && (
            <Alert tone="error" id={`report-error-${targetId}`}>
              {error}
            </Alert>
          )}
          <fieldset
            className="choice-group"
            role="radiogroup"
            aria-invalid={errors.reason ? true : undefined}
            aria-describedby={errors.reason ? `report-error-${targetId}` : undefined}
          >
            <legend>Why are you reporting this?</legend>
            {REPORT_REASONS.map((r) => (
              <label key={r.value} className="choice">
                <input type="radio" value={r.value} {...register("reason")} />
                {r.label}
              </label>
            ))}
          </fieldset>
          <div className="field">
            <label htmlFor={`report-note-${targetId}`}>Note (optional)</label>
            <textarea
              id={`report-note-${targetId}`}
              rows={3}
              maxLength={REPORT_NOTE_MAX}
              {...register("note")}
              aria-describedby={`report-note-${targetId}-counter`}
            />
            <span id={`report-note-${targetId}-counter`} className="field-hint">
              {note.length} / {REPORT_NOTE_MAX.toLocaleString("en-US")} characters
            </span>
          </div>
          <FormActions label="Send Report" busyLabel="Sending..." busy={busy} onCancel={onClose} />
        </form>
      )}
    </Dialog>
  );
}
