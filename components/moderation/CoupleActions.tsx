"use client";

import { useState } from "react";
import { useZodForm } from "@/components/forms/useZodForm";
import { Alert } from "@/components/ui/Alert";
import { Field } from "@/components/ui/Field";
import { liftSanctionAction } from "@/app/(app)/moderation/actions";
import { reach } from "@/lib/transport/actions";

const loadSchema = () => import("@/lib/safety/moderation-schemas").then((schemas) => schemas.liftSchema);

/** Lift a standing action, with a reason the log keeps. */
export function CoupleActions({ sanctionId, kind }: { sanctionId: string; kind: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useZodForm(loadSchema, { reason: "" }, "on-submit");
  const submit = handleSubmit(async (values) => {
    setFailed(null);
    const done = await reach(() => liftSanctionAction(sanctionId, values));
    if (!done.ok) setFailed(done.message);
  });
  return (
    <form onSubmit={submit} noValidate aria-label={`Lift this ${kind}`}>
      {failed && <Alert tone="error">{failed}</Alert>}
      <Field label="Reason to lift" error={errors.reason?.message} {...register("reason")} />
      <button type="submit" className="button button-secondary" disabled={isSubmitting}>
        Lift
      </button>
    </form>
  );
}
