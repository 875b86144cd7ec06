"use client";

import { useState } from "react";
import { z } from "zod";
import { compressImage } from "@/lib/onboarding/client/compress";
import { photoToFile, type PickedPhoto } from "@/lib/onboarding/client/photo";
import { uploadForm } from "@/lib/onboarding/client/upload";
import { saveErrorMessage, type SAVE_FAILED } from "@/lib/onboarding/step-checks";

/** Optimizing the photos, then sending the form. */
export type SavePhase = "idle" | "compressing" | "uploading";

/** A photo part of the multipart body: the field it goes under and the file name sent. */
export type PhotoPart = { field: string; fileName: string; photo: PickedPhoto };

export type SaveOutcome =
  | { ok: true; json: unknown }
  /** `fields`: the server's message per field; `message`: what the whole form says, if anything. */
  | { ok: false; code: string | null; fields: Record<string, string>; message: string | null };

const errorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), fields: z.record(z.string(), z.string()).optional() }),
});

/** A whole-form problem the server reports under "_" is shown like any other form message. */
const FORM_KEY = "_";

function failure(step: keyof typeof SAVE_FAILED, status: number, json: unknown): SaveOutcome {
  const parsed = errorBody.safeParse(json);
  if (!parsed.success) return { ok: false, code: null, fields: {}, message: saveErrorMessage(step, `Upload failed with status ${status}`) };
  const { code, message, fields = {} } = parsed.data.error;
  const { [FORM_KEY]: formProblem, ...fieldProblems } = fields;
  if (Object.keys(fieldProblems).length > 0) return { ok: false, code, fields: fieldProblems, message: formProblem ?? null };
  return { ok: false, code, fields: {}, message: formProblem ?? saveErrorMessage(step, message, code) };
}

/**
 * Saves one onboarding step: compresses each photo in a worker (the first half of the
 * progress), then uploads the multipart form (the second half) with real upload progress.
 * After a success it stays busy: the screen is about to move on and must not be sent twice.
 */
export function useStepSave(step: keyof typeof SAVE_FAILED, url: string) {
  const [phase, setPhase] = useState<SavePhase>("idle");
  const [progress, setProgress] = useState(0);

  async function save(form: FormData, photos: readonly PhotoPart[]): Promise<SaveOutcome> {
    setProgress(0);
    try {
      setPhase("compressing");
      for (const [index, part] of photos.entries()) {
        form.append(part.field, await compressImage(photoToFile(part.photo)), part.fileName);
        setProgress((index + 1) / photos.length / 2);
      }
      setProgress(0.5);
      setPhase("uploading");
      const { status, json } = await uploadForm(url, form, { onProgress: (fraction) => setProgress(0.5 + fraction / 2) });
      if (status >= 200 && status < 300) return { ok: true, json };
      setPhase("idle");
      return failure(step, status, json);
    } catch (error) {
      setPhase("idle");
      return { ok: false, code: null, fields: {}, message: saveErrorMessage(step, error instanceof Error ? error.message : "") };
    }
  }

  return { phase, progress, busy: phase !== "idle", save };
}
