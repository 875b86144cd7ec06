import "server-only";
import { and, asc, eq, inArray, lte } from "drizzle-orm";
import type { Db } from "@/db/client";
import { notifications } from "@/db/schema";
import { holdNamedRows } from "@/lib/forum/named-rows";
import { markReadWhere } from "@/lib/notifications/service";
import { connectionRequest } from "@/lib/notifications/types/connection-request";
import { openSince } from "./rules";

/** Hello notices a run of the due work marks read at most (the next run goes on). */
const EXPIRED_NOTICES_PER_RUN = 1_000;

/**
 * A hello's notice once the hello expired unanswered: marked read, as an answered one's is
 * (markReadFrom in ./service.ts): it no longer waits for anyone, and the hello has left the
 * requests. A notice is written as its hello is sent, and the pair sends no other within
 * ASK_AGAIN_DAYS, so one from before `openSince` is an expired (or answered) hello's. Due work
 * (lib/scheduled/service.ts), oldest first (notifications_hello_unread_created_idx); answers how many.
 * Their recipients' rows are held first, in id order, as the bells told at the commit take them
 * anyway: an account's deletion holds the person, then deletes their notices, so the run waits for
 * it before holding a notice, never holding one while it waits on the person.
 */
export async function readExpiredHelloNotices(tx: Db, now: Date): Promise<number> {
  const due = await tx
    .select({ id: notifications.id, userId: notifications.userId })
    .from(notifications)
    .where(
      and(eq(notifications.type, connectionRequest.type), eq(notifications.isRead, false), lte(notifications.createdAt, openSince(now))),
    )
    .orderBy(asc(notifications.createdAt))
    .limit(EXPIRED_NOTICES_PER_RUN);
  if (due.length === 0) return 0;
  await holdNamedRows(
    tx,
    due.map((notice) => notice.userId),
    [],
  );
  return markReadWhere(
    tx,
    inArray(
      notifications.id,
      due.map((notice) => notice.id),
    ),
  );
}
