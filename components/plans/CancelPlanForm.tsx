"use client";

import { useZodForm } from "@/components/forms/useZodForm";
import { FieldFrame } from "@/components/ui/FieldFrame";
import { FormActions } from "@/components/ui/FormActions";
import { CANCEL_REASON_MAX } from "@/lib/plans/rules";

const loadSchema = () => import("@/lib/plans/schemas").then((m) => m.cancelPlanSchema);

type Props = {
  /** The reason field's id. */
  id: string;
  /** The card's own busy state (its actions run one at a time). */
  busy: boolean;
  /** Cancels the plan (the card runs it and shows a failure); an empty reason is no reason. */
  onCancel(reason: string | null): Promise<void>;
  onKeep(): void;
};

/** 'Cancel this plan?': an optional reason, checked as the call checks it, then 'Cancel plan' or 'Keep it'. */
export function CancelPlanForm({ id, busy, onCancel, onKeep }: Props) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useZodForm(loadSchema, { reason: "" }, "on-submit");
  const submit = handleSubmit(({ reason }) => onCancel((typeof reason === "string" ? reason.trim() : "") || null));

  return (
    <form onSubmit={submit} noValidate>
      <FieldFrame label="Reason (optional)" error={errors.reason?.message} id={id}>
        {(control) => <textarea {...control} rows={2} maxLength={CANCEL_REASON_MAX} {...register("reason")} />}
      </FieldFrame>
      <FormActions
        label="Cancel plan"
        busyLabel="Cancelling..."
        busy={isSubmitting}
        disabled={busy}
        onCancel={onKeep}
        cancelLabel="Keep it"
      />
    </form>
  );
}
