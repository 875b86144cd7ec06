import "server-only";
import { imageStorage, newStorageKey, type ImageStorage } from "@/lib/storage";
import { processImage } from "./process";
import type { ImageKind } from "./rules";

export type StoredImage = { key: string; url: string; width: number; height: number; bytes: number };
export type StoredPrivateImage = Omit<StoredImage, "url">;

/** Processes an upload and stores the result under a new random key in the kind's folder. */
async function store(input: Uint8Array, kind: ImageKind, storage?: ImageStorage) {
  const image = await processImage(input, kind);
  const target = storage ?? (await imageStorage());
  const key = newStorageKey(kind, "jpg");
  const { url } = await target.put(key, image.buffer, image.contentType);
  return { key, url, width: image.width, height: image.height, bytes: image.bytes };
}

/**
 * Stores a public image (profiles, couples, forum posts) and answers the URL anyone loads it
 * from. Nothing is written unless processing succeeded. A caller whose later step fails (e.g. the
 * database write) removes what it stored with `deleteImages`, so no orphan file stays behind.
 */
export async function storeImage(input: Uint8Array, kind: ImageKind, storage?: ImageStorage): Promise<StoredImage> {
  const { url, ...stored } = await store(input, kind, storage);
  if (url === null) throw new Error(`${kind} is a private image kind: store it with storePrivateImage`);
  return { ...stored, url };
}

/** Stores a private image (lib/storage/keys.ts `isPrivateKey`): no URL; its feature serves it, to whom it may. */
export async function storePrivateImage(input: Uint8Array, kind: ImageKind, storage?: ImageStorage): Promise<StoredPrivateImage> {
  const { url, ...stored } = await store(input, kind, storage);
  if (url !== null) throw new Error(`${kind} is a public image kind: store it with storeImage`);
  return stored;
}

export { deleteImages } from "./undeleted";
