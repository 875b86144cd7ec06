import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { stagedPhotos } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { consumeLimit, limitError, LIMITS } from "@/lib/rate-limit";
import type { ImageStorage } from "@/lib/storage";
import { STAGED_PHOTO_EXPIRED_MESSAGE, type StagedPhotoKind } from "./rules";
import { deleteImages, storeImage } from "./store";
import { sweepUnusedUploads } from "./sweep";

/**
 * Photos uploaded one per request ahead of the save that uses them (`POST /api/uploads`), so no
 * request carries more than one photo: the platform refuses bodies over 4.5 MB, and six photos
 * of a phone's camera pass that. Each is judged by its content and resized on arrival (as an
 * upload in the save itself would be) and stored under its final key. The save claims its rows
 * in its own transaction (claimStagedPhotos): a failed save rolls the claim back, so the photos
 * wait for the next try. Photos nobody claimed are swept after STAGED_PHOTO_HOURS, with their
 * files (sweepStagedPhotos, run by the due work; deleting the account removes them at once).
 */

export type StagedPhoto = { id: string; kind: StagedPhotoKind; url: string };

/** How many expired photos one run of the due work removes at most. */
const SWEEP_BATCH = 100;

export async function stagePhoto(
  db: Db,
  userId: string,
  kind: StagedPhotoKind,
  bytes: Uint8Array,
  storage?: ImageStorage,
): Promise<StagedPhoto> {
  const state = await consumeLimit(db, LIMITS.stagedPhotosPerUser, userId);
  if (!state.allowed) throw limitError(LIMITS.stagedPhotosPerUser, state.retryAfterSeconds);
  const stored = await storeImage(bytes, kind, storage);
  let id: string;
  try {
    const [row] = await db
      .insert(stagedPhotos)
      .values({ ownerUserId: userId, kind, key: stored.key, url: stored.url })
      .returning({ id: stagedPhotos.id });
    id = row!.id;
  } catch (error) {
    await deleteImages(db, [stored.key], storage);
    throw error;
  }
  return { id, kind, url: stored.url };
}

export type StagedClaim = { id: string; kind: StagedPhotoKind; field: string };

/**
 * Takes the caller's staged photos for a save, in the save's transaction: their rows go (rolled
 * back with the save), their files stay as the rows the save writes show them. A photo that is
 * not the caller's, not of the kind the field needs, already used or swept is refused under its
 * field, and the whole save with it.
 */
export async function claimStagedPhotos(
  tx: Db,
  userId: string,
  claims: readonly StagedClaim[],
): Promise<Map<string, { key: string; url: string }>> {
  if (claims.length === 0) return new Map();
  const rows = await tx
    .delete(stagedPhotos)
    .where(
      and(
        eq(stagedPhotos.ownerUserId, userId),
        inArray(
          stagedPhotos.id,
          claims.map((claim) => claim.id),
        ),
      ),
    )
    .returning({ id: stagedPhotos.id, kind: stagedPhotos.kind, key: stagedPhotos.key, url: stagedPhotos.url });
  const found = new Map(rows.map((row) => [row.id, row]));
  // A photo shows once: the same id twice in one save is refused like a missing one.
  const refused = claims.filter(
    (claim, index) => found.get(claim.id)?.kind !== claim.kind || claims.findIndex((c) => c.id === claim.id) !== index,
  );
  if (refused.length > 0) {
    const fieldErrors = Object.fromEntries(refused.map((claim) => [claim.field, STAGED_PHOTO_EXPIRED_MESSAGE]));
    throw new AppError("VALIDATION_ERROR", STAGED_PHOTO_EXPIRED_MESSAGE, { fieldErrors });
  }
  return new Map(rows.map((row) => [row.id, { key: row.key, url: row.url }]));
}

/**
 * Removes up to SWEEP_BATCH photos staged more than STAGED_PHOTO_HOURS before `now` and never
 * claimed, rows first (SKIP LOCKED: runs sweeping at once take different rows), files after. The
 * due work runs it, so a photo goes even when no upload ever follows it.
 */
export async function sweepStagedPhotos(db: Db, now: Date): Promise<number> {
  return sweepUnusedUploads(
    db,
    { table: stagedPhotos, id: stagedPhotos.id, file: stagedPhotos.key, createdAt: stagedPhotos.createdAt, keyOf: (key) => key },
    now,
    SWEEP_BATCH,
  );
}
