import "server-only";
import { and, eq, ne } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { couples, users } from "@/db/schema";
import { lockCoupleOf, partnerOf } from "@/lib/membership/partner";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { chooseStorage, isStorageKey, LOCAL_IMAGE_URL_PREFIX, type ImageStorage } from "@/lib/storage";
import { IMAGE_URL_REFUSED_MESSAGE, type StagedPhotoKind } from "./rules";
import { deleteImages, storeImage, type StoredImage } from "./store";
import { claimStagedPhotos } from "./staged";
import { writeDeletingImages } from "./undeleted";
import type { Upload } from "./upload";
import { LIMITS, spendLimits } from "@/lib/rate-limit";
import { isSlash, trimEndWhere } from "@/lib/trim-end";

/**
 * The image lifecycle of profiles, couples and invitations: store uploads, remove them when the
 * write fails, remove the ones a change replaced, and check the image URLs a JSON call names.
 */

/** An image a write shows: stored from its bytes now, or claimed from the photos staged ahead. */
export type PlacedImage = { key: string; url: string };

/**
 * Stores the uploads sent as bytes, one after another (sharp is CPU-bound; one at a time keeps
 * memory flat), in their order; staged ones are left for the transaction to claim (they counted
 * when staged). Each photo sent with a form counts as one staged ahead would, before any is
 * processed. If one is refused, the ones already stored are removed before the error goes on.
 */
async function storeUploads(db: Db, userId: string, uploads: readonly Upload[], storage?: ImageStorage): Promise<(StoredImage | null)[]> {
  await spendLimits(
    db,
    uploads.flatMap((upload) => ("bytes" in upload ? [[LIMITS.stagedPhotosPerUser, userId] as const] : [])),
  );
  const stored: (StoredImage | null)[] = [];
  try {
    for (const upload of uploads)
      stored.push("bytes" in upload ? await storeImage(upload.bytes, upload.kind, storage).catch(underField(upload.field)) : null);
    return stored;
  } catch (error) {
    await deleteImages(db, keysOf(stored), storage);
    throw error;
  }
}

/** A photo refused for its content, its message put on the form's field for it (when the upload names one). */
const underField =
  (field: string | undefined) =>
  (error: unknown): never => {
    if (!field || !(error instanceof AppError) || error.code !== "VALIDATION_ERROR" || error.extra.fieldErrors) throw error;
    throw new AppError(error.code, error.message, { ...error.extra, fieldErrors: { [field]: error.message } });
  };

const keysOf = (images: readonly (StoredImage | null)[]) => images.flatMap((image) => (image ? [image.key] : []));

/** What a write hands back: its result, and the image URLs its rows no longer show. */
export type ImageWrite<T> = { result: T; replaced: readonly string[] };

/**
 * The one sequence of a write that touches the user's images: store the uploads sent as bytes
 * (slow, so before the transaction opens), then in one transaction claim the photos staged ahead
 * (lib/images/staged.ts), run the write with every image in the uploads' order and record the
 * images it replaced (writeDeletingImages). If it fails, the stored uploads are removed and the
 * staged photos stay staged (nothing half-written); once it committed, the images it replaced are
 * removed.
 */
export async function writeWithImages<T>(
  db: Db,
  userId: string,
  images: { uploads?: readonly Upload[]; storage?: ImageStorage },
  write: (tx: Db, placed: readonly PlacedImage[]) => Promise<ImageWrite<T>>,
): Promise<T> {
  const uploads = images.uploads ?? [];
  const stored = await storeUploads(db, userId, uploads, images.storage);
  try {
    return await writeDeletingImages(
      db,
      async (tx) => {
        const staged = uploads.flatMap((upload) =>
          "stagedId" in upload ? [{ id: upload.stagedId, kind: upload.kind as StagedPhotoKind, field: upload.field }] : [],
        );
        const claimed = await claimStagedPhotos(tx, userId, staged);
        const placed = uploads.map((upload, index) => ("stagedId" in upload ? claimed.get(upload.stagedId)! : stored[index]!));
        const { result, replaced } = await write(tx, placed);
        return { result, deletedKeys: await imagesNoLongerShown(tx, userId, replaced) };
      },
      images.storage,
    );
  } catch (error) {
    // Only the transaction throws: it rolled back, so no row shows the stored uploads.
    await deleteImages(db, keysOf(stored), images.storage);
    throw error;
  }
}

/** Where the configured storage serves what this app stored: this app's image route, or the S3 public URL. */
function storedImagePrefix(): string {
  const choice = chooseStorage(env());
  return choice.kind === "local" ? LOCAL_IMAGE_URL_PREFIX : `${trimEndWhere(choice.settings.publicUrl, isSlash)}/`;
}

/** The storage key of a URL the storage handed out (its prefix, then a key, nothing else); else null. */
export function storedImageKey(url: string): string | null {
  const prefix = storedImagePrefix();
  const key = url.startsWith(prefix) ? url.slice(prefix.length) : null;
  return key !== null && isStorageKey(key) ? key : null;
}

/** The images a change replaced or removed: URLs shown before and not after. */
export function replacedImageUrls(before: readonly (string | null)[], after: readonly (string | null)[]): string[] {
  const kept = new Set(after);
  return [...new Set(before)].filter((url): url is string => url !== null && !kept.has(url));
}

const partner = alias(users, "partner");

/**
 * The images around a user, in one query by key: their own (their photo, their couple's photos)
 * and their partner's photo. A JSON call may only name the first kind, so an image is never
 * shown anywhere but on these three rows.
 */
async function imagesAround(db: Db, userId: string): Promise<{ own: Set<string>; partnerAvatar: string | null }> {
  const [row] = await db
    .select({ avatar: users.avatarUrl, main: couples.profileImageUrl, photos: couples.photos, partnerAvatar: partner.avatarUrl })
    .from(users)
    .leftJoin(couples, partnerOf(users.id))
    .leftJoin(partner, and(ne(partner.id, users.id), partnerOf(partner.id)))
    .where(eq(users.id, userId));
  const own = [row?.avatar ?? null, row?.main ?? null, ...(row?.photos ?? [])].filter((url) => url !== null);
  return { own: new Set(own), partnerAvatar: row?.partnerAvatar ?? null };
}

/**
 * The storage keys of the images a change to the user's rows replaced, read in its transaction:
 * only images of this app's storage, and only those the user's rows or their partner's photo no
 * longer show (one image may be named in two places).
 */
async function imagesNoLongerShown(tx: Db, userId: string, urls: readonly string[]): Promise<string[]> {
  const ours = urls.flatMap((url) => {
    const key = storedImageKey(url);
    return key ? [{ url, key }] : [];
  });
  if (ours.length === 0) return [];
  const { own, partnerAvatar } = await imagesAround(tx, userId);
  return ours.filter((image) => !own.has(image.url) && image.url !== partnerAvatar).map((image) => image.key);
}

/** The image URLs a JSON call names, by field. */
type NamedImageUrls = Record<string, string | null | undefined | readonly string[]>;

/** Each field with the URLs it names; null when none names any. */
function namedImageUrls(fields: NamedImageUrls): (readonly [string, readonly string[]])[] | null {
  const named = Object.entries(fields).map(([field, value]) => [field, typeof value === "string" ? [value] : (value ?? [])] as const);
  return named.some(([, urls]) => urls.length > 0) ? named : null;
}

/**
 * Image URLs sent as JSON may only name images the caller's own user row or couple row shows
 * now (to reorder them or move one to another place): an outside URL would let a profile show
 * a tracking pixel, and another couple's photo is theirs, not the caller's to show. Uploads go
 * through the multipart forms. Each refused field gets the message. Checked before the write
 * (a refusal stores no upload and looks up no place), and in it (assertOwnImageUrlsUntilCommit).
 */
export async function assertOwnImageUrls(db: Db, userId: string, fields: NamedImageUrls): Promise<void> {
  const named = namedImageUrls(fields);
  if (!named) return;
  const { own } = await imagesAround(db, userId);
  const refused = Object.fromEntries(
    named.filter(([, urls]) => urls.some((url) => !own.has(url))).map(([field]) => [field, IMAGE_URL_REFUSED_MESSAGE]),
  );
  if (Object.keys(refused).length > 0) throw new AppError("VALIDATION_ERROR", IMAGE_URL_REFUSED_MESSAGE, { fieldErrors: refused });
}

/**
 * `assertOwnImageUrls` again inside the write's transaction, the person's row and then their
 * couple's locked until it commits (the order every write takes them). Checked before the
 * transaction only, an image the partner's save took off the couple in between was saved here
 * with its file removed by that save; now that save either came first and the image is refused,
 * or waits for this one and then finds its rows showing the image (imagesNoLongerShown keeps it).
 */
export async function assertOwnImageUrlsUntilCommit(tx: Db, userId: string, fields: NamedImageUrls): Promise<void> {
  if (!namedImageUrls(fields)) return;
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
  await lockCoupleOf(tx, userId);
  await assertOwnImageUrls(tx, userId, fields);
}
