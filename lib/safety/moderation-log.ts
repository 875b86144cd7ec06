import "server-only";
import { and, desc, eq, isNull, ne, or, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, moderationLog, users } from "@/db/schema";
import { cursorAfter, readCursor, rowsAfter } from "@/lib/pagination/cursor";
import { keysetPage, type KeysetPage } from "@/lib/pagination/page";
import type { Moderator } from "./moderators";
import type { LogAction } from "./rules";

/**
 * The moderation log: one row per moderator action, written in the action's own transaction, never
 * changed (no function here updates or deletes, and the database refuses it: migration 0022's
 * trigger). Moderators read it newest first, filtered by moderator, couple or action.
 */

export type LogEntry = {
  /** Null: the spam rules acted by themselves. */
  moderatorUserId: string | null;
  action: LogAction;
  coupleId?: string | null;
  target?: { type: string; id: string } | null;
  reason?: string | null;
  note?: string | null;
};

/** Appends one row, in the caller's transaction. */
export async function recordModeration(tx: Db, entry: LogEntry): Promise<void> {
  await tx.insert(moderationLog).values({
    moderatorUserId: entry.moderatorUserId,
    action: entry.action,
    coupleId: entry.coupleId ?? null,
    targetType: entry.target?.type ?? null,
    targetId: entry.target?.id ?? null,
    reason: entry.reason ?? null,
    note: entry.note ?? null,
  });
}

export type LogFilters = { moderatorUserId?: string; coupleId?: string; action?: LogAction };

export type LogRow = {
  id: string;
  action: string;
  moderator: { userId: string; firstName: string } | null;
  couple: { id: string; coupleName: string } | null;
  target: { type: string; id: string } | null;
  reason: string | null;
  note: string | null;
  createdAt: string;
};

export const LOG_PAGE_SIZE = 50;
const INVALID_CURSOR = "This page of the log is no longer available. Please reload.";
const contextOf = (filters: LogFilters) =>
  `moderation-log:${filters.moderatorUserId ?? ""}:${filters.coupleId ?? ""}:${filters.action ?? ""}`;

/**
 * A page of the log, newest first (its indexes: the order, and each filter with the order). Never
 * the entries on the reader's own couple (`concernsOwnCouple`): who acted on it, and why, is
 * another moderator's record.
 */
export async function moderationLogPage(
  db: Db,
  reader: Pick<Moderator, "coupleId">,
  filters: LogFilters,
  cursorText?: string,
): Promise<KeysetPage<LogRow>> {
  const context = contextOf(filters);
  const cursor = readCursor(context, cursorText, INVALID_CURSOR);
  const where: SQL[] = [];
  // `concernsOwnCouple` (./moderators.ts) as SQL.
  if (reader.coupleId) where.push(or(isNull(moderationLog.coupleId), ne(moderationLog.coupleId, reader.coupleId))!);
  if (filters.moderatorUserId) where.push(eq(moderationLog.moderatorUserId, filters.moderatorUserId));
  if (filters.coupleId) where.push(eq(moderationLog.coupleId, filters.coupleId));
  if (filters.action) where.push(eq(moderationLog.action, filters.action));
  if (cursor) where.push(rowsAfter(moderationLog.seq, moderationLog.id, cursor, "desc"));
  const rows = await db
    .select({
      id: moderationLog.id,
      seq: moderationLog.seq,
      action: moderationLog.action,
      moderatorUserId: moderationLog.moderatorUserId,
      moderatorFirstName: users.firstName,
      coupleId: moderationLog.coupleId,
      coupleName: couples.coupleName,
      targetType: moderationLog.targetType,
      targetId: moderationLog.targetId,
      reason: moderationLog.reason,
      note: moderationLog.note,
      createdAt: moderationLog.createdAt,
    })
    .from(moderationLog)
    .leftJoin(users, eq(users.id, moderationLog.moderatorUserId))
    .leftJoin(couples, eq(couples.id, moderationLog.coupleId))
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(moderationLog.seq), desc(moderationLog.id))
    .limit(LOG_PAGE_SIZE + 1);
  return keysetPage(
    rows,
    LOG_PAGE_SIZE,
    (row) => ({
      id: row.id,
      action: row.action,
      moderator: row.moderatorUserId ? { userId: row.moderatorUserId, firstName: row.moderatorFirstName ?? "Former moderator" } : null,
      couple: row.coupleId ? { id: row.coupleId, coupleName: row.coupleName ?? "Deleted couple" } : null,
      target: row.targetType && row.targetId ? { type: row.targetType, id: row.targetId } : null,
      reason: row.reason,
      note: row.note,
      createdAt: row.createdAt.toISOString(),
    }),
    (last) => cursorAfter(context, { sortKey: last.seq, id: last.id }),
  );
}
