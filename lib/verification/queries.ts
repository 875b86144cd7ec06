import "server-only";
import { and, asc, eq, isNotNull, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, photoVerifications, users } from "@/db/schema";
import { cursorAfter, readCursor, rowsAfter } from "@/lib/pagination/cursor";
import { keysetPage, type KeysetPage } from "@/lib/pagination/page";
import { concernsOwnCouple, mayDecideFor, type Moderator } from "@/lib/safety/moderators";
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

/**
 * The pending selfies, oldest first (photo_verifications_pending_idx), a keyset page at a time.
 * Never those a moderator may not decide (`mayDecideFor`: their own couple's, or a couple their
 * couple reported): another moderator decides them.
 */
export async function pendingVerifications(
  db: Db,
  moderator: Pick<Moderator, "coupleId">,
  cursorText?: string,
): Promise<KeysetPage<PendingVerification>> {
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
        mayDecideFor(moderator, photoVerifications.coupleId),
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

/** The storage key of the partner's selfie while it waits, for a moderator who may decide it (`mayDecideFor`); null otherwise. */
export async function pendingSelfieKey(db: Db, moderator: Pick<Moderator, "coupleId">, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ key: photoVerifications.selfieKey })
    .from(photoVerifications)
    .where(
      and(
        eq(photoVerifications.userId, userId),
        eq(photoVerifications.status, "pending"),
        mayDecideFor(moderator, photoVerifications.coupleId),
      ),
    );
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

/**
 * A partner's photo verification as moderators see it on the couple's page: the state and its dates, the selfie only while
 * pending. On the reader's own couple, as the partner is told it (Settings › Photo verification): never the selfie nor its pose.
 */
export type PartnerVerification = {
  userId: string;
  firstName: string;
  status: VerificationStatus;
  submittedAt: string | null;
  decidedAt: string | null;
  refusal: { reason: string; label: string } | null;
  /**
   * While pending: the pose asked and the moderators' selfie URL; never a decided selfie (it is deleted), nor one the reader
   * may not decide (`mayDecideFor`: their own couple's, or a couple their couple reported; another moderator decides it,
   * `pendingSelfieKey` and the queue leave it out).
   */
  pending: { pose: { id: string; label: string }; selfieUrl: string } | null;
};

/**
 * Each partner of the couple (partner 1 first) with their verification, as `reader` may see it; a
 * partner who never asked is 'not_started'. On the reader's own couple a refusal's reason is the
 * reader's own only: it is told to the partner refused, never to the other partner.
 */
export async function partnerVerifications(db: Db, coupleId: string, reader: Moderator): Promise<PartnerVerification[]> {
  const own = concernsOwnCouple(reader, coupleId);
  const rows = await db
    .select({
      userId: users.id,
      firstName: users.firstName,
      status: photoVerifications.status,
      pose: photoVerifications.pose,
      selfieKey: photoVerifications.selfieKey,
      submittedAt: photoVerifications.submittedAt,
      decidedAt: photoVerifications.decidedAt,
      refusalReason: photoVerifications.refusalReason,
      // The selfie only to a moderator who may decide it, as the queue and its route (`pendingSelfieKey`) do.
      decidable: sql<boolean>`${mayDecideFor(reader, couples.id) ?? sql`true`}`,
    })
    .from(couples)
    .innerJoin(users, or(eq(users.id, couples.partner1Id), eq(users.id, couples.partner2Id)))
    .leftJoin(photoVerifications, eq(photoVerifications.userId, users.id))
    .where(eq(couples.id, coupleId))
    .orderBy(sql`${users.id} = ${couples.partner2Id}`);
  return rows.map((row) => {
    const status = (row.status ?? "not_started") as VerificationStatus;
    return {
      userId: row.userId,
      firstName: row.firstName,
      status,
      submittedAt: row.submittedAt?.toISOString() ?? null,
      decidedAt: row.decidedAt?.toISOString() ?? null,
      refusal:
        row.refusalReason && (!own || row.userId === reader.userId)
          ? { reason: row.refusalReason, label: refusalLabel(row.refusalReason) }
          : null,
      pending:
        row.decidable && status === "pending" && row.selfieKey && row.pose
          ? { pose: { id: row.pose, label: poseLabel(row.pose) }, selfieUrl: selfieUrl(row.userId) }
          : null,
    };
  });
}
