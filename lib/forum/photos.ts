import "server-only";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { forumPhotos, forumPosts } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { storedImageKey } from "@/lib/images/lifecycle";
import { unusablePhotoMessage } from "@/lib/images/rules";
import { sweepUnusedUploads } from "@/lib/images/sweep";
import { notFound } from "./thread";

/*
 * A forum photo's life: uploaded ahead (`POST /api/forum/photos`, a `forum_photos` row naming its
 * uploader), claimed by the post that shows it (the row goes), and deleted with its file when the
 * post no longer shows it: edited out, the post deleted or removed by a moderator. An upload no
 * post claimed within STAGED_PHOTO_HOURS is swept, file and all: the URL of a photo taken down
 * stops answering, and uploads are no image host.
 */

/** Uploads swept per run at most. */
const SWEEP_BATCH = 100;

/** A post's photos refused: `ourUpload` when they are this app's uploads, no longer the author's to use. */
function refused(ourUpload: boolean): AppError {
  const message = unusablePhotoMessage(ourUpload);
  return new AppError("VALIDATION_ERROR", message, { fieldErrors: { photos: message } });
}

/**
 * A post's photos must be its author's own uploads not yet on a post, or photos the post shows
 * already (`shown`): the new ones are claimed, in the caller's transaction.
 */
export async function claimForumPhotos(tx: Db, ownerUserId: string, urls: readonly string[], shown: readonly string[] = []): Promise<void> {
  const added = urls.filter((url) => !shown.includes(url));
  if (added.length === 0) return;
  if (new Set(added).size !== added.length) throw refused(false);
  const claimed = await tx
    .delete(forumPhotos)
    .where(and(inArray(forumPhotos.url, added), eq(forumPhotos.ownerUserId, ownerUserId)))
    .returning({ url: forumPhotos.url });
  if (claimed.length !== added.length) {
    const missing = added.filter((url) => !claimed.some((row) => row.url === url));
    throw refused(missing.every((url) => storedImageKey(url) !== null));
  }
}

/** The storage keys of photos a post showed and shows no more, to delete once the change commits. */
export const forumPhotoKeys = (urls: readonly string[]): string[] => urls.flatMap((url) => storedImageKey(url) ?? []);

/**
 * Locks a post still there (not deleted or removed) for a change of its photos, and answers the
 * photos it shows now; one deleted or removed meanwhile is 404.
 */
export async function lockLivePost(tx: Db, postId: string): Promise<string[]> {
  const [row] = await tx
    .select({ photos: forumPosts.photos })
    .from(forumPosts)
    .where(and(eq(forumPosts.id, postId), isNull(forumPosts.deletedAt), isNull(forumPosts.removedAt)))
    .for("update");
  if (!row) throw notFound();
  return row.photos;
}

/** Takes every photo off a post (deleted, or removed by a moderator): the keys of their files, to delete after the commit. */
export async function dropPostPhotos(tx: Db, postId: string): Promise<string[]> {
  const [before] = await tx.select({ photos: forumPosts.photos }).from(forumPosts).where(eq(forumPosts.id, postId)).for("update");
  if (!before || before.photos.length === 0) return [];
  await tx.update(forumPosts).set({ photos: [] }).where(eq(forumPosts.id, postId));
  return forumPhotoKeys(before.photos);
}

/** Removes uploads no post claimed within STAGED_PHOTO_HOURS, with their files (the due work's run). */
export async function sweepUnclaimedForumPhotos(db: Db, now: Date): Promise<number> {
  return sweepUnusedUploads(
    db,
    { table: forumPhotos, id: forumPhotos.url, file: forumPhotos.url, createdAt: forumPhotos.createdAt, keyOf: storedImageKey },
    now,
    SWEEP_BATCH,
    // Never one a post shows (an instance of the code before claims wrote it, mid-deploy): its
    // author's posts, by their index.
    sql`not exists (select 1 from ${forumPosts} where ${forumPosts.authorUserId} = ${forumPhotos.ownerUserId} and ${forumPhotos.url} = any(${forumPosts.photos}))`,
  );
}
