/**
 * Sends a settings form with its photos through the onboarding pipeline (lib/images/client/
 * send-photos: compressed in a worker, the couple's photos one per request ahead of the form),
 * with CSRF and the progress of the whole. Browser only.
 */
import "client-only";
import { sendWithPhotos, type PhotoPart, type SendOptions } from "@/lib/images/client/send-photos";

export type SettingsSave = { ok: true; json: unknown } | { ok: false; message: string; fields: Record<string, string> };

export const SAVE_FAILED = "Could not save your changes. Please try again.";

export async function saveSettingsForm(
  url: string,
  form: FormData,
  photos: readonly PhotoPart[],
  options: SendOptions = {},
): Promise<SettingsSave> {
  try {
    const { status, json } = await sendWithPhotos(url, form, photos, options);
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
