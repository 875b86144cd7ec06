/**
 * Sends a form with its photos so that no request carries more than one photo (the platform
 * refuses bodies over 4.5 MB; six photos of a phone pass that): each photo is compressed in a
 * worker, the ones marked `stagedAs` are uploaded one per request to `POST /api/uploads`, and the
 * form then names their ids; the save itself stays small. Progress is of the whole: compressing
 * the first half, then every byte sent (each upload, then the save) the second.
 */
import "client-only";
import { ApiError } from "@/lib/transport/client";
import { uploadForm } from "@/lib/transport/upload";
import { STAGED_PHOTO_EXPIRED_MESSAGE, type StagedPhotoKind } from "@/lib/images/rules";
import { compressImage } from "./compress";
import { photoToFile, type PickedPhoto } from "./photo";

/** A photo of a form: the field it goes under and the file name sent; `stagedAs` uploads it ahead as that kind. */
export type PhotoPart = { field: string; fileName: string; photo: PickedPhoto; stagedAs?: StagedPhotoKind };

export type SendPhase = "compressing" | "uploading";
export type SendOptions = {
  onProgress?(phase: SendPhase, fraction: number): void;
  /**
   * The ids of photos already uploaded by an earlier try of this form: a save refused for its
   * text does not send its photos again. Entries are added as photos are uploaded, and cleared
   * when the server says an upload has expired.
   */
  uploaded?: WeakMap<PickedPhoto, string>;
};

/**
 * The form's answer (its JSON); a refusal is the transport's ApiError, a refused photo's with its
 * messages under the photo's own field of the form.
 */
export async function sendWithPhotos(
  url: string,
  form: FormData,
  parts: readonly PhotoPart[],
  options: SendOptions = {},
): Promise<unknown> {
  const uploaded = options.uploaded ?? new WeakMap<PickedPhoto, string>();
  const report = options.onProgress ?? (() => {});
  report("compressing", 0);
  const files: (File | null)[] = [];
  for (const [index, part] of parts.entries()) {
    files.push(part.stagedAs && uploaded.has(part.photo) ? null : await compressImage(photoToFile(part.photo)));
    report("compressing", (index + 1) / parts.length / 2);
  }
  // The save's own body is a few hundred bytes of text, plus any photo it still carries itself.
  const saveBytes = 1024 + parts.reduce((sum, part, i) => sum + (part.stagedAs ? 0 : (files[i]?.size ?? 0)), 0);
  const total = saveBytes + parts.reduce((sum, part, i) => sum + (part.stagedAs ? (files[i]?.size ?? 0) : 0), 0);
  let sent = 0;
  const progressOf = (bytes: number) => (fraction: number) => report("uploading", 0.5 + (sent + fraction * bytes) / total / 2);
  report("uploading", 0.5);
  for (const [index, part] of parts.entries()) {
    const file = files[index];
    if (!part.stagedAs || !file) continue;
    const single = new FormData();
    single.set("kind", part.stagedAs);
    single.set("photo", file, part.fileName);
    const answer = await uploadForm<{ data: { id: string } }>("/api/uploads", single, { onProgress: progressOf(file.size) }).catch(
      (error: unknown) => {
        throw underField(error, part.field);
      },
    );
    uploaded.set(part.photo, answer.data.id);
    sent += file.size;
  }
  for (const [index, part] of parts.entries()) {
    if (part.stagedAs) form.append(part.field, uploaded.get(part.photo)!);
    else form.append(part.field, files[index]!, part.fileName);
  }
  try {
    return await uploadForm(url, form, { onProgress: progressOf(saveBytes) });
  } catch (error) {
    if (error instanceof ApiError && error.message === STAGED_PHOTO_EXPIRED_MESSAGE) for (const part of parts) uploaded.delete(part.photo);
    throw error;
  }
}

/** A refused upload of one photo, its messages moved from the upload's `photo` field to the form's field. */
function underField(error: unknown, field: string): unknown {
  if (!(error instanceof ApiError) || error.fields.photo === undefined) return error;
  const { photo, ...rest } = error.fields;
  return new ApiError(error.status, error.code, error.message, { ...rest, [field]: photo });
}
