"use client";

import { useState } from "react";
import { useWatch } from "react-hook-form";
import { useZodForm } from "@/components/forms/useZodForm";
import { Alert } from "@/components/ui/Alert";
import { FieldFrame } from "@/components/ui/FieldFrame";
import { FormActions } from "@/components/ui/FormActions";
import { sanctionCoupleAction } from "@/app/(app)/moderation/actions";
import { GUIDELINES, RESTRICT_DAYS, SANCTION_KINDS } from "@/lib/safety/rules";

const loadSchema = () => import("@/lib/safety/moderation-schemas").then((schemas) => schemas.sanctionSchema);

const KIND_LABELS = { warn: "Warn", restrict: "Restrict", suspend: "Suspend", ban: "Ban" } as const;

/** Warn, restrict (1, 7 or 30 days), suspend or ban, with a guideline and a note for the record. */
export function ActOnCouple({ coupleId, reportId }: { coupleId: string; reportId?: string }) {
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
      <FieldFrame label="Action">
        {(control) => (
          <select {...control} {...register("kind")}>
            {SANCTION_KINDS.map((value) => (
              <option key={value} value={value}>
                {KIND_LABELS[value]}
              </option>
            ))}
          </select>
        )}
      </FieldFrame>
      {kind === "restrict" && (
        <FieldFrame label="For" error={errors.days?.message}>
          {(control) => (
            <select {...control} {...register("days")}>
              {RESTRICT_DAYS.map((days) => (
                <option key={days} value={days}>
                  {days} day{days === 1 ? "" : "s"}
                </option>
              ))}
            </select>
          )}
        </FieldFrame>
      )}
      <FieldFrame label="Guideline broken">
        {(control) => (
          <select {...control} {...register("reason")}>
            {GUIDELINES.map((guideline) => (
              <option key={guideline.key} value={guideline.key}>
                {guideline.label}
              </option>
            ))}
          </select>
        )}
      </FieldFrame>
      <FieldFrame label="Note for the record" error={errors.note?.message}>
        {(control) => <textarea {...control} rows={3} {...register("note")} />}
      </FieldFrame>
      <FormActions tone="danger" label={`${KIND_LABELS[kind ?? "warn"]} this couple`} busyLabel="Saving..." busy={isSubmitting} />
    </form>
  );
}
