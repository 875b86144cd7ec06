"use client";

import { useId, useState } from "react";
import { useWatch } from "react-hook-form";
import { useZodForm } from "@/components/forms/useZodForm";
import { Alert } from "@/components/ui/Alert";
import { FormActions } from "@/components/ui/FormActions";
import { sanctionCoupleAction } from "@/app/(app)/moderation/actions";
import { GUIDELINES, RESTRICT_DAYS, SANCTION_KINDS } from "@/lib/safety/rules";

const loadSchema = () => import("@/lib/safety/moderation-schemas").then((schemas) => schemas.sanctionSchema);

const KIND_LABELS = { warn: "Warn", restrict: "Restrict", suspend: "Suspend", ban: "Ban" } as const;

/** Warn, restrict (1, 7 or 30 days), suspend or ban, with a guideline and a note for the record. */
export function ActOnCouple({ coupleId, reportId }: { coupleId: string; reportId?: string }) {
  const id = useId();
  const [result, setResult] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const {
    register,
    handleSubmit,
    control,
    reset,
    formState: { errors, isSubmitting },
  } = useZodForm(loadSchema, { kind: "warn", reason: "harassment", note: "", ...(reportId ? { reportId } : {}) }, "on-submit");
  const kind = useWatch({ control, name: "kind" });
  const submit = handleSubmit(async (values) => {
    setResult(null);
    const done = await sanctionCoupleAction(coupleId, values);
    if (done.ok) {
      setResult({ tone: "success", text: "Done. The couple is told, and the log has it." });
      reset();
    } else setResult({ tone: "error", text: done.message });
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Act on this couple">
      {result && <Alert tone={result.tone}>{result.text}</Alert>}
      {reportId && <p>Acting from a report: its open reports are closed as handled.</p>}
      <div className="field">
        <label htmlFor={`${id}-kind`}>Action</label>
        <select id={`${id}-kind`} {...register("kind")}>
          {SANCTION_KINDS.map((value) => (
            <option key={value} value={value}>
              {KIND_LABELS[value]}
            </option>
          ))}
        </select>
      </div>
      {kind === "restrict" && (
        <div className="field">
          <label htmlFor={`${id}-days`}>For</label>
          <select
            id={`${id}-days`}
            {...register("days")}
            aria-invalid={errors.days ? true : undefined}
            aria-describedby={errors.days ? `${id}-days-error` : undefined}
          >
            {RESTRICT_DAYS.map((days) => (
              <option key={days} value={days}>
                {days} day{days === 1 ? "" : "s"}
              </option>
            ))}
          </select>
          {errors.days && (
            <span id={`${id}-days-error`} className="field-error">
              {errors.days.message}
            </span>
          )}
        </div>
      )}
      <div className="field">
        <label htmlFor={`${id}-reason`}>Guideline broken</label>
        <select id={`${id}-reason`} {...register("reason")}>
          {GUIDELINES.map((guideline) => (
            <option key={guideline.key} value={guideline.key}>
              {guideline.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-note`}>Note for the record</label>
        <textarea
          id={`${id}-note`}
          rows={3}
          {...register("note")}
          aria-invalid={errors.note ? true : undefined}
          aria-describedby={errors.note ? `${id}-note-error` : undefined}
        />
        {errors.note && (
          <span id={`${id}-note-error`} className="field-error">
            {errors.note.message}
          </span>
        )}
      </div>
      <FormActions tone="danger" label={`${KIND_LABELS[kind ?? "warn"]} this couple`} busyLabel="Saving..." busy={isSubmitting} />
    </form>
  );
}
