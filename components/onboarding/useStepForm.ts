"use client";

import { useEffect, useRef } from "react";
import { useForm, useWatch, type DefaultValues, type FieldValues, type Path, type Resolver } from "react-hook-form";
import { clearDraft, sessionStore, type DraftStore } from "@/lib/forms/draft-store";
import type { SAVE_FAILED } from "@/lib/onboarding/step-checks";
import { useStepSave, type StepSubmit } from "./useStepSave";

type StepFormOptions<V extends FieldValues> = {
  step: keyof typeof SAVE_FAILED;
  url: string;
  userId: string;
  draft: DraftStore<V>;
  defaultValues: DefaultValues<V>;
  resolver: Resolver<V>;
};

/** Typing is kept this long after the last keystroke (and at once when the page goes away). */
const TEXT_DRAFT_DELAY_MS = 500;

/**
 * The draft of a form's values: the text written once typing pauses (and at once when the page
 * or the form goes away), the photos (large data URLs) only when one of them changed, compared
 * by reference. `discard` removes it for good (the step was saved).
 */
function useDraft<V extends FieldValues>(draft: DraftStore<V>, userId: string, values: V) {
  const savedPhotos = useRef<unknown[] | null>(null);
  /** The values of the last change while their text is not yet written. */
  const pending = useRef<V | null>(null);
  const discarded = useRef(false);
  const flush = useRef(() => {});

  useEffect(() => {
    flush.current = () => {
      if (pending.current && !discarded.current) draft.saveText(sessionStore(), userId, pending.current);
      pending.current = null;
    };
    const onPageHide = () => flush.current();
    window.addEventListener("pagehide", onPageHide);
    return () => {
      window.removeEventListener("pagehide", onPageHide);
      flush.current();
    };
  }, [draft, userId]);

  useEffect(() => {
    if (discarded.current) return;
    const photos = draft.photoFields.flatMap((field) => values[field as string]);
    const previous = savedPhotos.current;
    if (!previous || previous.length !== photos.length || photos.some((photo, i) => photo !== previous[i])) {
      savedPhotos.current = photos;
      draft.savePhotos(sessionStore(), userId, values);
    }
    pending.current = values;
    const timer = setTimeout(() => flush.current(), TEXT_DRAFT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [draft, userId, values]);

  return {
    discard() {
      discarded.current = true;
      pending.current = null;
      clearDraft(sessionStore(), userId, draft.form);
    },
  };
}

/**
 * One onboarding step's form: react-hook-form over the step's checks, every change kept as a
 * draft (so a reload restores it), and the save wired to the fields: the server's field messages
 * land on the fields, and the draft goes once the step is saved. `frame` is for StepFormFrame.
 */
export function useStepForm<V extends FieldValues, F extends Path<V>>({
  step,
  url,
  userId,
  draft,
  defaultValues,
  resolver,
}: StepFormOptions<V>) {
  const save = useStepSave<F>(step, url);
  const form = useForm<V>({ defaultValues, resolver, shouldFocusError: false });
  const values = useWatch({ control: form.control }) as V;
  const drafts = useDraft(draft, userId, values);

  const submit = (request: Omit<StepSubmit<F>, "setFieldError">) =>
    save.submit({
      ...request,
      setFieldError: (field, message) => form.setError(field, { message }),
      onSaved: (json) => {
        drafts.discard();
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
