"use client";

import { useState } from "react";
import { useWatch } from "react-hook-form";
import { useZodForm } from "@/components/forms/useZodForm";
import { Alert } from "@/components/ui/Alert";
import { FieldFrame } from "@/components/ui/FieldFrame";
import { FormActions } from "@/components/ui/FormActions";
import { SelectField } from "@/components/ui/SelectField";
import { sanctionCoupleAction } from "@/app/(app)/moderation/actions";
import { GUIDELINES, RESTRICT_DAYS, SANCTION_KINDS } from "@/lib/safety/rules";
import { reach } from "@/lib/transport/actions";

const loadSchema = () => import("@/lib/safety/moderation-schemas").then((schemas) => schemas.sanctionSchema);

const KIND_LABELS = { warn: "Warn", restrict: "Restrict", suspend: "Suspend", ban: "Ban" } as const;
const KIND_OPTIONS = SANCTION_KINDS.map((value) => ({ value, label: KIND_LABELS[value] }));
const DAYS_OPTIONS = RESTRICT_DAYS.map((days) => ({ value: days, label: `${days} day${days === 1 ? "" : "s"}` }));
const GUIDELINE_OPTIONS = GUIDELINES.map((guideline) => ({ value: guideline.key, label: guideline.label }));

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
    const done = await reach(() => sanctionCoupleAction(coupleId, values));
    if (done.ok) {
      setResult({ tone: "success", text: "Done. The couple is told, and the log has it." });
      reset();
    } else setResult({ tone: "error", text: done.message });
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Act on this couple">
      {result && <Alert tone={result.tone}>{result.text}</Alert>}
      {reportId && (
        <p>
          Acting from a report: a report about the couple or a plan closes with the action; a reported post, reply or message stays in the
          queue to dismiss or remove.
        </p>
      )}
      <SelectField label="Action" options={KIND_OPTIONS} {...register("kind")} />
      {kind === "restrict" && <SelectField label="For" options={DAYS_OPTIONS} error={errors.days?.message} {...register("days")} />}
      <SelectField label="Guideline broken" options={GUIDELINE_OPTIONS} {...register("reason")} />
      <FieldFrame label="Note for the record" error={errors.note?.message}>
        {(control) => <textarea {...control} rows={3} {...register("note")} />}
      </FieldFrame>
      <FormActions tone="danger" label={`${KIND_LABELS[kind ?? "warn"]} this couple`} busyLabel="Saving..." busy={isSubmitting} />
    </form>
  );
}
