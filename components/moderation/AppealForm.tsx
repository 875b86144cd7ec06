"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useZodForm } from "@/components/forms/useZodForm";
import { Alert } from "@/components/ui/Alert";
import { FieldFrame } from "@/components/ui/FieldFrame";
import { appealAction } from "@/lib/safety/client/api";

const loadSchema = () => import("@/lib/safety/moderation-schemas").then((schemas) => schemas.appealSchema);

/** Appeal one action, once (1-1,000 characters). */
export function AppealForm({ sanctionId }: { sanctionId: string }) {
  const router = useRouter();
  const [failed, setFailed] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useZodForm(loadSchema, { sanctionId, body: "" }, "on-submit");
  const submit = handleSubmit(async (values) => {
    setFailed(null);
    try {
      await appealAction(values.sanctionId, values.body);
      router.refresh();
    } catch (failure) {
      setFailed(failure instanceof Error ? failure.message : "Could not send your appeal. Please try again.");
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Appeal this action">
      {failed && <Alert tone="error">{failed}</Alert>}
      <FieldFrame label="Your appeal" error={errors.body?.message}>
        {(control) => <textarea {...control} rows={3} {...register("body")} />}
      </FieldFrame>
      <button type="submit" className="button button-secondary" disabled={isSubmitting}>
        Appeal
      </button>
    </form>
  );
}
