import "server-only";
import { deleteImages, storeImage, type ImageKind, type StoredImage } from "@/lib/images";
import type { ImageStorage } from "@/lib/storage";

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
