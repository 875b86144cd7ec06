import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { conversations, messagePhotos, messages } from "@/db/schema";
import { sweepUnusedUploads } from "@/lib/images/sweep";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { isPrivateKey, isStorageKey } from "@/lib/storage";
import { ofCouple } from "./access";

/**
 * A conversation's photos are private objects (lib/storage/keys.ts): this route serves them, and
 * only to the people who may read the conversation (and to their uploader before they are sent).
 */
export const MESSAGE_PHOTO_URL_PREFIX = "/api/messages/photos/";

export const messagePhotoUrl = (key: string): string => MESSAGE_PHOTO_URL_PREFIX + key;

/** The storage key of a message photo's URL; null for anything else. */
export function messagePhotoKey(url: string): string | null {
  if (!url.startsWith(MESSAGE_PHOTO_URL_PREFIX)) return null;
  const key = url.slice(MESSAGE_PHOTO_URL_PREFIX.length);
  return isStorageKey(key) && isPrivateKey(key) ? key : null;
}

/**
 * Whether the member may see the photo: it shows in a message (not erased) of one of their
 * couple's conversations (as its thread may be read: ended ones too), or it is their own upload
 * not yet sent. Either way, one look-up by the URL's index.
 */
export async function mayViewMessagePhoto(db: Db, member: Pick<ActingCouple, "userId" | "coupleId">, key: string): Promise<boolean> {
  const url = messagePhotoUrl(key);
  const [shown] = await db
    .select({ id: messages.id })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(and(eq(messages.photoUrl, url), isNull(messages.deletedAt), ofCouple(member.coupleId)))
    .limit(1);
  if (shown) return true;
  const [pending] = await db
    .select({ url: messagePhotos.url })
    .from(messagePhotos)
    .where(and(eq(messagePhotos.url, url), eq(messagePhotos.ownerUserId, member.userId)))
    .limit(1);
  return Boolean(pending);
}

/** Uploads swept per run at most. */
const SWEEP_BATCH = 100;

/**
 * Removes photos uploaded for a message that was never sent within STAGED_PHOTO_HOURS, with their
 * files (the due work's run): sending claims an upload (its row goes), so what is left was dropped.
 */
export async function sweepUnsentMessagePhotos(db: Db, now: Date): Promise<number> {
  return sweepUnusedUploads(
    db,
    { table: messagePhotos, id: messagePhotos.url, file: messagePhotos.url, createdAt: messagePhotos.createdAt, keyOf: messagePhotoKey },
    now,
    SWEEP_BATCH,
  );
}
