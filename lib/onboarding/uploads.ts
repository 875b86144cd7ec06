import "server-only";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { deleteImages, storeImage, type ImageKind, type StoredImage } from "@/lib/images";
import { chooseStorage, isStorageKey, LOCAL_IMAGE_URL_PREFIX, type ImageStorage } from "@/lib/storage";
import { MESSAGES } from "./rules";

export type Upload = { bytes: Uint8Array; kind: ImageKind };

/**
 * Stores uploads one after another (sharp is CPU-bound; one at a time keeps memory flat). If one
 * is refused, the ones already stored are removed before the error goes on.
 */
export async function storeUploads(uploads: readonly Upload[], storage?: ImageStorage): Promise<StoredImage[]> {
  const stored: StoredImage[] = [];
  try {
    for (const upload of uploads) stored.push(await storeImage(upload.bytes, upload.kind, storage));
    return stored;
  } catch (error) {
    await deleteImages(stored.map((image) => image.key), storage);
    throw error;
  }
}

/** Runs the database work; if it fails, the images stored for it go too, so nothing is half-written. */
export async function withStoredImages<T>(stored: readonly StoredImage[], storage: ImageStorage | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    await deleteImages(stored.map((image) => image.key), storage);
    throw error;
  }
}

/** Where the configured storage serves what this app stored: this app's image route, or the S3 public URL. */
function storedImagePrefix(): string {
  const choice = chooseStorage(env());
  return choice.kind === "local" ? LOCAL_IMAGE_URL_PREFIX : `${choice.settings.publicUrl.replace(/\/+$/, "")}/`;
}

/** True for a URL the storage handed out: its prefix followed by a storage key, nothing else. */
export function isStoredImageUrl(url: string): boolean {
  const prefix = storedImagePrefix();
  return url.startsWith(prefix) && isStorageKey(url.slice(prefix.length));
}

/**
 * Image URLs sent as JSON must name images this app stored: an outside URL would let a
 * profile show a tracking pixel or a hotlinked image. Each refused field gets the message.
 */
export function assertStoredImageUrls(fields: Record<string, string | null | undefined | readonly string[]>): void {
  const refused: Record<string, string> = {};
  for (const [field, value] of Object.entries(fields)) {
    const urls = typeof value === "string" ? [value] : (value ?? []);
    if (urls.some((url) => !isStoredImageUrl(url))) refused[field] = MESSAGES.imageNotStored;
  }
  if (Object.keys(refused).length > 0) throw new AppError("VALIDATION_ERROR", MESSAGES.imageNotStored, { fieldErrors: refused });
}
