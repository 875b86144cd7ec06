import "server-only";
import { AppError } from "@/lib/errors";
import { INVALID_IMAGE_MESSAGE, uploadTooLargeProblem, type ImageKind } from "./rules";

/**
 * An uploaded file's bytes, or null when none was picked (browsers send an empty part for an
 * empty file input). Content and size are judged again by the image functions.
 */
export async function uploadedImageBytes(value: FormDataEntryValue | null, field: string): Promise<Buffer | null> {
  if (value === null || value === "") return null;
  const refuse = (message: string) => new AppError("VALIDATION_ERROR", message, { fieldErrors: { [field]: message } });
  if (typeof value === "string") throw refuse(INVALID_IMAGE_MESSAGE);
  if (value.size === 0) return null;
  const tooLarge = uploadTooLargeProblem(value.size);
  if (tooLarge) throw refuse(tooLarge);
  return Buffer.from(await value.arrayBuffer());
}

/** A photo of a save: its bytes, sent with the save, or the id of one uploaded ahead of it (`POST /api/uploads`). */
export type PhotoInput = Uint8Array | { stagedId: string };

const UUID = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/i;

/**
 * A photo field of a form that takes staged photos: a file part is the photo itself, a text part
 * the id `POST /api/uploads` answered (so the save's request stays small); null when empty.
 */
export async function photoField(value: FormDataEntryValue | null, field: string): Promise<PhotoInput | null> {
  if (typeof value === "string" && value !== "") {
    if (!UUID.test(value))
      throw new AppError("VALIDATION_ERROR", INVALID_IMAGE_MESSAGE, { fieldErrors: { [field]: INVALID_IMAGE_MESSAGE } });
    return { stagedId: value.toLowerCase() };
  }
  return uploadedImageBytes(value, field);
}

/**
 * What a write stores (bytes) or claims (a staged photo) as an image of `kind`; `field` names it
 * in a refusal (without one, a refused photo's message is the form's alone).
 */
export type Upload = { kind: ImageKind; bytes: Uint8Array; field?: string } | { kind: ImageKind; stagedId: string; field: string };

export const toUpload = (photo: PhotoInput, kind: ImageKind, field: string): Upload =>
  photo instanceof Uint8Array ? { kind, bytes: photo, field } : { kind, stagedId: photo.stagedId, field };
