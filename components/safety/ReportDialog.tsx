"use client";

import { useState, type FormEvent } from "react";
import { Dialog } from "@/components/ui/Dialog";
import { Alert } from "@/components/ui/Alert";
import { FORUM_TEXTS, REPORT_NOTE_MAX, REPORT_REASONS, type ReportReason, type ReportTargetType } from "@/lib/forum/rules";
import { sendReport } from "@/lib/forum/client/api";
import { ApiError } from "@/lib/http/client";

type Props = { open: boolean; onClose(): void; targetType: ReportTargetType; targetId: string };

/** 'Report': a reason (spam, harassment, inappropriate, other) and an optional note, then thanks. */
export function ReportDialog({ open, onClose, targetType, targetId }: Props) {
  const [reason, setReason] = useState<ReportReason | "">("");
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!reason) {
      setError("Please choose a reason");
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await sendReport({ targetType, targetId, reason, note: note.trim() || undefined });
      setSent(true);
    } catch (failure) {
      // A second report of the same target is already in the team's hands: thank them the same.
      if (failure instanceof ApiError && failure.code === "ALREADY_REPORTED") setSent(true);
      else setError(failure instanceof Error ? failure.message : "Could not send your report");
    } finally {
      setBusy(false);
    }
  }

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
          {error && <Alert tone="error">{error}</Alert>}
          <fieldset className="choice-group">
            <legend>Why are you reporting this?</legend>
            {REPORT_REASONS.map((r) => (
              <label key={r.value} className="choice">
                <input type="radio" name="reason" value={r.value} checked={reason === r.value} onChange={() => setReason(r.value)} />
                {r.label}
              </label>
            ))}
          </fieldset>
          <div className="field">
            <label htmlFor={`report-note-${targetId}`}>Note (optional)</label>
            <textarea
              id={`report-note-${targetId}`}
              rows={3}
              value={note}
              maxLength={REPORT_NOTE_MAX}
              onChange={(event) => setNote(event.target.value)}
              aria-describedby={`report-note-${targetId}-counter`}
            />
            <span id={`report-note-${targetId}-counter`} className="field-hint">
              {note.length} / {REPORT_NOTE_MAX.toLocaleString("en-US")} characters
            </span>
          </div>
          <div className="form-actions">
            <button type="submit" className="button button-primary" disabled={busy}>
              {busy ? "Sending..." : "Send Report"}
            </button>
            <button type="button" className="button button-secondary" onClick={onClose}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
