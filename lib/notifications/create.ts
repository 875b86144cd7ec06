import "server-only";
import type { Db } from "@/db/client";
import { notifications } from "@/db/schema";

export type NotificationType = (typeof notifications.$inferInsert)["type"];

export type NewNotification = {
  /** The recipient. */
  userId: string;
  type: NotificationType;
  title: string;
  message: string;
  postId?: string | null;
  replyId?: string | null;
  actorUserId?: string | null;
  actorCoupleId?: string | null;
};

/**
 * Writes one notification in the caller's transaction, so it exists exactly when the change
 * that caused it does (a partner joining now; forum replies, mentions and reactions later).
 */
export async function createNotification(db: Db, notification: NewNotification): Promise<string> {
  const [row] = await db.insert(notifications).values(notification).returning({ id: notifications.id });
  return row!.id;
}
