/**
 * Sends a settings form with its photos through the onboarding pipeline (lib/images/client/
 * send-photos: compressed in a worker, the couple's photos one per request ahead of the form,
 * each through the transport's upload), with the progress of the whole. Browser only.
 */
import "client-only";
import { ApiError } from "@/lib/transport/client";
import { sendWithPhotos, type PhotoPart, type SendOptions } from "@/lib/images/client/send-photos";

export type SettingsSave = { ok: true; json: unknown } | { ok: false; message: string; fields: Record<string, string> };

export const SAVE_FAILED = "Could not save your changes. Please try again.";

/**
 * The form's answer; a failure with the server's message says it, one without (no answer, a bare
 * status) says `failed`, the form's own text (spec section 8: 'Failed to update profile',
 * 'Failed to update couple').
 */
export async function saveSettingsForm(
  url: string,
  form: FormData,
  photos: readonly PhotoPart[],
  failed: string,
  options: SendOptions = {},
): Promise<SettingsSave> {
  try {
    return { ok: true, json: await sendWithPhotos(url, form, photos, options) };
  } catch (error) {
    if (error instanceof ApiError && error.code !== null && error.status !== 0)
      return { ok: false, message: error.message, fields: error.fields };
    return { ok: false, message: failed, fields: {} };
  }
}
