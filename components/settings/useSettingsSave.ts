"use client";

import { useRef, useState } from "react";
import { focusField, type ServerErrors } from "@/components/forms/useZodForm";
import type { PickedPhoto } from "@/lib/images/client/photo";
import type { PhotoPart, SendPhase } from "@/lib/images/client/send-photos";
import { saveSettingsForm } from "@/lib/settings/client/save";

export type Status = { tone: "success" | "error"; text: string } | null;

const CORRECT_FIELDS = "Please correct the fields marked below.";
const NOTHING_CHANGED = "Nothing to save: nothing has changed.";

/**
 * The server's field messages on the form's fields, and focus on the first: react-hook-form
 * focuses a field it registered; a photo picker (set by value) is found by its data-field.
 */
export function showRefusal(fields: Record<string, string>, setServerErrors: ServerErrors, form: HTMLFormElement | null): void {
  setServerErrors(fields);
  focusField(form, Object.keys(fields)[0]);
}

/**
 * A settings section's save, for its form (useZodForm, its element on `formRef`): the progress of
 * its photos, the server's field messages on the form's fields, and one status line; `failed` is
 * what it says when the save fails without a message of the server's. `refused` is the form's
 * answer to its own checks failing (handleSubmit's second callback).
 */
export function useSettingsSave(url: string, failed: string, setServerErrors: ServerErrors) {
  const [progress, setProgress] = useState<{ phase: SendPhase; fraction: number } | null>(null);
  const uploaded = useRef(new WeakMap<PickedPhoto, string>());
  const [status, setStatus] = useState<Status>(null);
  const formRef = useRef<HTMLFormElement>(null);

  /** Sends the form and its photos; `onSaved` gets the answer's JSON. */
  async function save(form: FormData, photos: PhotoPart[], onSaved: (json: unknown) => void) {
    setStatus(null);
    const result = await saveSettingsForm(url, form, photos, failed, {
      uploaded: uploaded.current,
      // A save of text alone is one small request: no progress to show.
      ...(photos.length > 0 ? { onProgress: (phase: SendPhase, fraction: number) => setProgress({ phase, fraction }) } : {}),
    });
    setProgress(null);
    if (!result.ok) {
      showRefusal(result.fields, setServerErrors, formRef.current);
      return setStatus({ tone: "error", text: result.message });
    }
    onSaved(result.json);
    setStatus({ tone: "success", text: "Saved." });
  }

  return {
    formRef,
    progress,
    status,
    save,
    refused: () => setStatus({ tone: "error", text: CORRECT_FIELDS }),
    /** A save with nothing changed sends nothing, and says so. */
    unchanged: () => setStatus({ tone: "success", text: NOTHING_CHANGED }),
  };
}
