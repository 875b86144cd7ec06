/**
 * Sends a settings form with its photos: each photo compressed in a worker first (the onboarding
 * pipeline, lib/images/client), then the multipart form through the transport's upload. Browser only.
 */
import "client-only";
import { ApiError } from "@/lib/http/client";
import { uploadForm } from "@/lib/http/upload-client";
import { compressImage } from "@/lib/images/client/compress";
import { photoToFile, type PickedPhoto } from "@/lib/images/client/photo";

export type SettingsSave = { ok: true; json: unknown } | { ok: false; message: string; fields: Record<string, string> };

export const SAVE_FAILED = "Could not save your changes. Please try again.";

export async function saveSettingsForm(
  url: string,
  form: FormData,
  photos: readonly { field: string; fileName: string; photo: PickedPhoto }[],
): Promise<SettingsSave> {
  try {
    for (const part of photos) form.append(part.field, await compressImage(photoToFile(part.photo)), part.fileName);
    return { ok: true, json: await uploadForm(url, form) };
  } catch (error) {
    // The server's refusal is shown as it is; anything else (no answer, a bare status) says the save failed.
    if (error instanceof ApiError && error.code !== null && error.status !== 0)
      return { ok: false, message: error.message, fields: error.fields };
    return { ok: false, message: SAVE_FAILED, fields: {} };
  }
}
