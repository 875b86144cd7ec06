"use client";

import { useEffect } from "react";
import { useForm, useWatch, type DefaultValues, type FieldValues, type Path, type Resolver } from "react-hook-form";
import { clearDraft, sessionStore, type DraftForm } from "@/lib/onboarding/drafts";
import type { SAVE_FAILED } from "@/lib/onboarding/step-checks";
import { useStepSave, type StepSubmit } from "./useStepSave";

type StepFormOptions<V extends FieldValues> = {
  step: keyof typeof SAVE_FAILED;
  url: string;
  userId: string;
  draft: DraftForm;
  saveDraft(storage: Storage | null, userId: string, values: V): void;
  defaultValues: DefaultValues<V>;
  resolver: Resolver<V>;
};

/**
 * One onboarding step's form: react-hook-form over the step's checks, every change kept as a
 * draft (so a reload restores it), and the save wired to the fields: the server's field messages
 * land on the fields, and the draft goes once the step is saved. `frame` is for StepFormFrame.
 */
export function useStepForm<V extends FieldValues, F extends Path<V>>({ step, url, userId, draft, saveDraft, defaultValues, resolver }: StepFormOptions<V>) {
  const save = useStepSave<F>(step, url);
  const form = useForm<V>({ defaultValues, resolver, shouldFocusError: false });
  const values = useWatch({ control: form.control }) as V;
  useEffect(() => saveDraft(sessionStore(), userId, values), [saveDraft, userId, values]);

  const submit = (request: Omit<StepSubmit<F>, "setFieldError">) =>
    save.submit({
      ...request,
      setFieldError: (field, message) => form.setError(field, { message }),
      onSaved: (json) => {
        clearDraft(sessionStore(), userId, draft);
        return request.onSaved(json);
      },
    });

  return {
    form,
    values,
    busy: save.busy,
    phase: save.phase,
    submit,
    frame: { handleSubmit: form.handleSubmit, error: save.formError, phase: save.phase, progress: save.progress },
  };
}
