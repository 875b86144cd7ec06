import "server-only";
import { arrayOverlaps, inArray, or } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, users } from "@/db/schema";
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

/** The storage key of a URL the storage handed out (its prefix, then a key, nothing else); else null. */
function storedImageKey(url: string): string | null {
  const prefix = storedImagePrefix();
  const key = url.startsWith(prefix) ? url.slice(prefix.length) : null;
  return key !== null && isStorageKey(key) ? key : null;
}

export const isStoredImageUrl = (url: string): boolean => storedImageKey(url) !== null;

/** The images a change replaced or removed: URLs shown before and not after. */
export function replacedImageUrls(before: readonly (string | null)[], after: readonly (string | null)[]): string[] {
  const kept = new Set(after);
  return [...new Set(before)].filter((url): url is string => url !== null && !kept.has(url));
}

/** Which of `urls` a profile or couple still shows. */
async function stillShown(db: Db, urls: string[]): Promise<Set<string>> {
  const avatars = await db.select({ url: users.avatarUrl }).from(users).where(inArray(users.avatarUrl, urls));
  const shown = await db
    .select({ main: couples.profileImageUrl, photos: couples.photos })
    .from(couples)
    .where(or(inArray(couples.profileImageUrl, urls), arrayOverlaps(couples.photos, urls)));
  return new Set([...avatars.map((row) => row.url), ...shown.flatMap((row) => [row.main, ...row.photos])].filter((url) => url !== null));
}

/**
 * After a change committed: removes the images it replaced, best effort (a failure is logged,
 * the change stands). Only images of this app's storage, and only those nothing else shows: a
 * JSON client may name one stored image in two places.
 */
export async function discardReplacedImages(db: Db, urls: readonly string[], storage?: ImageStorage): Promise<void> {
  const ours = urls.flatMap((url) => {
    const key = storedImageKey(url);
    return key ? [{ url, key }] : [];
  });
  if (ours.length === 0) return;
  try {
    const shown = await stillShown(db, ours.map((image) => image.url));
    await deleteImages(ours.filter((image) => !shown.has(image.url)).map((image) => image.key), storage);
  } catch (error) {
    console.error("[images] could not remove replaced images", error);
  }
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
