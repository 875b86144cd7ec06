import "server-only";
import { and, asc, eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, photoVerifications, users } from "@/db/schema";
import { cursorAfter, readCursor, rowsAfter } from "@/lib/pagination/cursor";
import { keysetPage, type KeysetPage } from "@/lib/pagination/page";
import { poseLabel, refusalLabel, VERIFICATION_PAGE_SIZE, type VerificationStatus } from "./rules";

/** Where a moderator's browser loads a pending selfie: the moderators' route, never a public image URL. */
export const selfieUrl = (userId: string): string => `/api/moderation/verifications/${encodeURIComponent(userId)}/selfie`;

/** A selfie waiting in the moderators' queue, beside what it is compared with. */
export type PendingVerification = {
  /** The partner's user id: the verification's id in the routes. */
  id: string;
  firstName: string;
  /** The partner's own photo. */
  avatarUrl: string | null;
  couple: { id: string; coupleName: string; profileImageUrl: string | null; photos: string[] };
  pose: { id: string; label: string };
  submittedAt: string;
  selfieUrl: string;
};

const QUEUE_CONTEXT = "verification-queue";
const INVALID_CURSOR = "This page of the queue is no longer available. Please reload.";

/** The pending selfies, oldest first (photo_verifications_pending_idx), a keyset page at a time. */
export async function pendingVerifications(db: Db, cursorText?: string): Promise<KeysetPage<PendingVerification>> {
  const cursor = readCursor(QUEUE_CONTEXT, cursorText, INVALID_CURSOR);
  const rows = await db
    .select({
      userId: photoVerifications.userId,
      pose: photoVerifications.pose,
      submittedAt: photoVerifications.submittedAt,
      firstName: users.firstName,
      avatarUrl: users.avatarUrl,
      coupleId: couples.id,
      coupleName: couples.coupleName,
      profileImageUrl: couples.profileImageUrl,
      photos: couples.photos,
    })
    .from(photoVerifications)
    .innerJoin(users, eq(users.id, photoVerifications.userId))
    .innerJoin(couples, eq(couples.id, photoVerifications.coupleId))
    .where(
      and(
        eq(photoVerifications.status, "pending"),
        isNotNull(photoVerifications.submittedAt),
        cursor ? rowsAfter(photoVerifications.submittedAt, photoVerifications.userId, cursor, "asc") : undefined,
      ),
    )
    .orderBy(asc(photoVerifications.submittedAt), asc(photoVerifications.userId))
    .limit(VERIFICATION_PAGE_SIZE + 1);
  return keysetPage(
    rows,
    VERIFICATION_PAGE_SIZE,
    (row) => ({
      id: row.userId,
      firstName: row.firstName,
      avatarUrl: row.avatarUrl,
      couple: { id: row.coupleId, coupleName: row.coupleName, profileImageUrl: row.profileImageUrl, photos: row.photos },
      pose: { id: row.pose, label: poseLabel(row.pose) },
      submittedAt: row.submittedAt!.toISOString(),
      selfieUrl: selfieUrl(row.userId),
    }),
    (last) => cursorAfter(QUEUE_CONTEXT, { sortKey: last.submittedAt!, id: last.userId }),
  );
}

/** The storage key of the partner's selfie while it waits for a moderator; null otherwise. */
export async function pendingSelfieKey(db: Db, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ key: photoVerifications.selfieKey })
    .from(photoVerifications)
    .where(and(eq(photoVerifications.userId, userId), eq(photoVerifications.status, "pending")));
  return row?.key ?? null;
}

/** The person's selfie still stored (a pending one), for deleting the account: its file goes too. */
export async function selfieKeysOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ key: photoVerifications.selfieKey })
    .from(photoVerifications)
    .where(and(eq(photoVerifications.userId, userId), isNotNull(photoVerifications.selfieKey)));
  return rows.flatMap((row) => (row.key ? [row.key] : []));
}

/** What a data export says of the person's verification: the state and the decision with its date, never the selfie. */
export async function verificationForExport(
  db: Db,
  userId: string,
): Promise<{ status: VerificationStatus; submittedAt: Date | null; decidedAt: Date | null; refusalReason: string | null } | null> {
  const [row] = await db
    .select({
      status: photoVerifications.status,
      submittedAt: photoVerifications.submittedAt,
      decidedAt: photoVerifications.decidedAt,
      refusalReason: photoVerifications.refusalReason,
    })
    .from(photoVerifications)
    .where(eq(photoVerifications.userId, userId));
  if (!row) return null;
  return {
    status: row.status as VerificationStatus,
    submittedAt: row.submittedAt,
    decidedAt: row.decidedAt,
    refusalReason: row.refusalReason ? refusalLabel(row.refusalReason) : null,
  };
}
