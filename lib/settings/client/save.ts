/**
 * Sends a settings form with its photos: each photo compressed in a worker first (the onboarding
 * pipeline, lib/images/client), then the multipart form with CSRF. Browser only.
 */
import "client-only";
import { compressImage } from "@/lib/images/client/compress";
import { photoToFile, type PickedPhoto } from "@/lib/images/client/photo";
import { uploadForm } from "@/lib/http/upload-client";

export type SettingsSave = { ok: true; json: unknown } | { ok: false; message: string; fields: Record<string, string> };

export const SAVE_FAILED = "Could not save your changes. Please try again.";

export async function saveSettingsForm(
  url: string,
  form: FormData,
  photos: readonly { field: string; fileName: string; photo: PickedPhoto }[],
): Promise<SettingsSave> {
  try {
    for (const part of photos) form.append(part.field, await compressImage(photoToFile(part.photo)), part.fileName);
    const { status, json } = await uploadForm(url, form);
    if (status >= 200 && status < 300) return { ok: true, json };
    // zod (with the answer's shape) loads only when an answer is a failure.
    const { errorBody } = await import("./error-body");
    const parsed = errorBody.safeParse(json);
    if (!parsed.success) return { ok: false, message: SAVE_FAILED, fields: {} };
    return { ok: false, message: parsed.data.error.message, fields: parsed.data.error.fields ?? {} };
  } catch {
    return { ok: false, message: SAVE_FAILED, fields: {} };
  }
}
