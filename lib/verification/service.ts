import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { photoVerifications } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { deleteImages, storePrivateImage } from "@/lib/images/store";
import { writeDeletingImages } from "@/lib/images/undeleted";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { createNotification } from "@/lib/notifications/service";
import { photoVerification } from "@/lib/notifications/types/photo-verification";
import { consumeLimit, limitError } from "@/lib/rate-limit";
import { recordModeration } from "@/lib/safety/moderation-log";
import { holdPersonRow } from "@/lib/users/presence";
import { assertMayActOn, type Moderator } from "@/lib/safety/moderators";
import {
  afterDecision,
  NOT_PENDING,
  pickPose,
  POSE_CHANGED,
  poseLabel,
  refusalLabel,
  SELFIES_PER_USER,
  submitProblem,
  type MyVerification,
  type PoseId,
  type VerificationStatus,
} from "./rules";
import type { VerificationDecision } from "./schemas";

type Row = typeof photoVerifications.$inferSelect;

const shown = (row: Row): MyVerification => ({
  status: row.status as VerificationStatus,
  pose: { id: row.pose, label: poseLabel(row.pose) },
  submittedAt: row.submittedAt?.toISOString() ?? null,
  decidedAt: row.decidedAt?.toISOString() ?? null,
  refusal: row.status === "refused" && row.refusalReason ? { reason: row.refusalReason, label: refusalLabel(row.refusalReason) } : null,
});

/**
 * `GET /api/verification`: the partner's state, with the pose the selfie must come in, picked on
 * the server at the first ask and again only when a selfie was judged (`decideVerification`):
 * asking again never draws another, so nobody can ask until the pose matches an old photo.
 */
export async function myVerification(db: Db, member: ActingCouple): Promise<MyVerification> {
  const [row] = await db
    .insert(photoVerifications)
    .values({ userId: member.userId, coupleId: member.coupleId, pose: pickPose() })
    .onConflictDoNothing({ target: photoVerifications.userId })
    .returning();
  if (row) return shown(row);
  const [asked] = await db.select().from(photoVerifications).where(eq(photoVerifications.userId, member.userId));
  return shown(asked!);
}

const conflict = (message: string) => new AppError("VERIFICATION_STATE", message);

/**
 * `POST /api/verification/selfie`: the selfie, through the image pipeline (judged by content,
 * metadata stripped, resized), stored privately, in the pose last asked for; the partner's state
 * becomes pending and the selfie waits in the moderators' queue.
 */
export async function submitSelfie(db: Db, member: ActingCouple, pose: PoseId, bytes: Uint8Array): Promise<MyVerification> {
  const [current] = await db.select().from(photoVerifications).where(eq(photoVerifications.userId, member.userId));
  if (!current || current.pose !== pose) throw conflict(POSE_CHANGED);
  const problem = submitProblem(current.status as VerificationStatus);
  if (problem) throw conflict(problem);
  const state = await consumeLimit(db, SELFIES_PER_USER, member.userId);
  if (!state.allowed) throw limitError(SELFIES_PER_USER, state.retryAfterSeconds);
  const stored = await storePrivateImage(bytes, "verification-selfie");
  let row: Row | undefined;
  try {
    [row] = await db
      .update(photoVerifications)
      .set({ status: "pending", selfieKey: stored.key, submittedAt: new Date(), decidedAt: null, refusalReason: null })
      .where(
        and(
          eq(photoVerifications.userId, member.userId),
          eq(photoVerifications.pose, pose),
          inArray(photoVerifications.status, ["not_started", "refused"]),
        ),
      )
      .returning();
  } catch (error) {
    // No row names the file, and no sweep looks in this private folder: a face would stay stored for ever.
    await deleteImages(db, [stored.key]);
    throw error;
  }
  if (!row) {
    // Another tab sent one first, or a new pose was asked meanwhile: this file is nobody's.
    await deleteImages(db, [stored.key]);
    throw conflict(POSE_CHANGED);
  }
  return shown(row);
}

/**
 * A moderator approves or refuses a pending selfie (never one of their own couple): the decision
 * and its date stay, the selfie's file and key go (writeDeletingImages: recorded with the
 * decision, removed after its commit), the log gets its row and the partner a notice.
 */
export async function decideVerification(
  db: Db,
  moderator: Moderator,
  userId: string,
  input: VerificationDecision,
): Promise<{ status: VerificationStatus; decidedAt: string }> {
  const decided = await writeDeletingImages(db, async (tx) => {
    // The partner's row first, key-share (what the notice's foreign key takes anyway), then their
    // selfie's: the order their account's deletion takes them (its row, then the selfie's with it),
    // so a deletion under way is waited for, and the two never wait on each other.
    await holdPersonRow(tx, userId, () => new AppError("NOT_FOUND", NOT_PENDING));
    const [row] = await tx
      .select()
      .from(photoVerifications)
      .where(and(eq(photoVerifications.userId, userId), eq(photoVerifications.status, "pending")))
      .for("update");
    if (!row) throw new AppError("NOT_FOUND", NOT_PENDING);
    await assertMayActOn(tx, moderator, row.coupleId);
    const status = afterDecision(input.decision);
    const reason = input.decision === "refuse" ? input.reason! : null;
    const [updated] = await tx
      .update(photoVerifications)
      // The next selfie (after a refusal, or once the partner's photo changes) comes in a new pose.
      .set({ status, selfieKey: null, decidedAt: new Date(), refusalReason: reason, pose: pickPose() })
      .where(eq(photoVerifications.userId, userId))
      .returning({ decidedAt: photoVerifications.decidedAt });
    await recordModeration(tx, {
      moderatorUserId: moderator.userId,
      action: status === "verified" ? "photo_approved" : "photo_refused",
      coupleId: row.coupleId,
      target: { type: "person", id: userId },
      reason,
    });
    const notice = photoVerification.text.decided({ status: status as "verified" | "refused", reason });
    await createNotification(tx, { userId, type: photoVerification.type, title: notice.title, message: notice.message });
    return { result: { status, decidedAt: updated!.decidedAt! }, deletedKeys: row.selfieKey ? [row.selfieKey] : [] };
  });
  return { status: decided.status, decidedAt: decided.decidedAt.toISOString() };
}

/**
 * Inside the write that replaced a partner's own photo: their verification is asked again
 * (lib/verification/rules.ts afterOwnPhotoChange; a pending selfie stays for the moderator).
 */
export async function askAgainAfterOwnPhotoChange(tx: Db, userId: string): Promise<void> {
  await tx
    .update(photoVerifications)
    .set({ status: "not_started", decidedAt: null, refusalReason: null })
    .where(and(eq(photoVerifications.userId, userId), inArray(photoVerifications.status, ["verified", "refused"])));
}
