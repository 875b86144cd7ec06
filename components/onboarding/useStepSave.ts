"use client";

import { useRef, useState } from "react";
import { ApiError } from "@/lib/transport/client";
import type { PickedPhoto } from "@/lib/images/client/photo";
import { sendWithPhotos, type PhotoPart } from "@/lib/images/client/send-photos";
import { saveErrorMessage, type SAVE_FAILED } from "@/lib/onboarding/step-checks";
import type { SavePhase } from "@/components/photos/SaveProgress";
import { focusField } from "@/components/forms/useZodForm";
import { listFieldOf } from "@/lib/forms/field-path";

export type { PhotoPart } from "@/lib/images/client/send-photos";

export type SaveOutcome =
  | { ok: true; json: unknown }
  /** `fields`: the server's message per field; `message`: what the whole form says, if anything. */
  | { ok: false; code: string | null; fields: Record<string, string>; message: string | null };

/** A whole-form problem the server reports under "_" is shown like any other form message. */
const FORM_KEY = "_";

/** The server's refusal: its fields' messages on the fields, else one message for the form. */
function refused(step: keyof typeof SAVE_FAILED, { code, message, fields }: ApiError): SaveOutcome {
  if (code === null) return { ok: false, code: null, fields: {}, message: saveErrorMessage(step, message) };
  const { [FORM_KEY]: formProblem, ...fieldProblems } = fields;
  if (Object.keys(fieldProblems).length > 0) return { ok: false, code, fields: fieldProblems, message: formProblem ?? null };
  return { ok: false, code, fields: {}, message: formProblem ?? saveErrorMessage(step, message, code) };
}

/** What the save needs of the step's form (useZodForm): the fields' messages, and its draft to clear once saved. */
type StepForm<F extends string> = { setError(field: F, error: { message: string }): void; clearDraft(): void };

/** One submit of a step's form, and what the step does with each answer. */
export type StepSubmit<F extends string> = {
  /** The form element, so focus can move to the first field the server refused. */
  formElement: HTMLFormElement;
  form: FormData;
  photos: readonly PhotoPart[];
  /** The form field a server field's message belongs to; undefined: the form's own message. */
  fieldOf(serverField: string): F | undefined;
  /** After a save: the step moves on. */
  onSaved(json: unknown): Promise<void> | void;
  /** A refused save, before its messages are shown. */
  onRefused?(code: string | null): void;
};

/**
 * Saves one onboarding step: compresses each photo in a worker (the first half of the
 * progress), then sends the photos one per request and the form (the second half) with real
 * upload progress (lib/images/client/send-photos). Photos already uploaded by a refused try are
 * not sent again.
 * After a success it stays busy: the screen is about to move on and must not be sent twice.
 * Every way it can fail ends in a message on the form, never in a screen stuck on its busy label.
 * The server's field messages land on the form's fields; the draft goes once the step is saved.
 */
export function useStepSave<F extends string>(step: keyof typeof SAVE_FAILED, url: string, stepForm: StepForm<F>) {
  const [phase, setPhase] = useState<SavePhase>("idle");
  const [progress, setProgress] = useState(0);
  const [formError, setFormError] = useState<string | null>(null);
  const uploaded = useRef(new WeakMap<PickedPhoto, string>());

  async function save(form: FormData, photos: readonly PhotoPart[]): Promise<SaveOutcome> {
    setProgress(0);
    try {
      const json = await sendWithPhotos(url, form, photos, {
        uploaded: uploaded.current,
        onProgress: (next, fraction) => {
          setPhase(next);
          setProgress(fraction);
        },
      });
      return { ok: true, json };
    } catch (error) {
      setPhase("idle");
      if (error instanceof ApiError && error.status !== 0) return refused(step, error);
      return { ok: false, code: null, fields: {}, message: saveErrorMessage(step, errorText(error)) };
    }
  }

  async function submit(request: StepSubmit<F>): Promise<void> {
    setFormError(null);
    const outcome = await save(request.form, request.photos);
    if (outcome.ok) {
      stepForm.clearDraft();
      try {
        await request.onSaved(outcome.json);
      } catch (error) {
        // Moving on failed: the form is usable again and says so.
        setPhase("idle");
        setFormError(saveErrorMessage(step, errorText(error)));
      }
      return;
    }
    request.onRefused?.(outcome.code);
    const fields = Object.entries(outcome.fields).map(([field, message]) => [request.fieldOf(listFieldOf(field)), message] as const);
    for (const [field, message] of fields) if (field) stepForm.setError(field, { message });
    setFormError(outcome.message ?? fields.find(([field]) => !field)?.[1] ?? null);
    focusField(request.formElement, fields.find(([field]) => field)?.[0]);
  }

  return { phase, progress, busy: phase !== "idle", formError, submit };
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : "");
