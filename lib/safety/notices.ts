import "server-only";
import { and, eq, gt, isNull, or, sql, type SQL } from "drizzle-orm";
import { unionAll } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { coupleSanctions } from "@/db/schema";
import type { SanctionKind, StandingSanction } from "./rules";

/**
 * What a couple is shown of the moderators' actions standing on it: an unread warning, and a
 * restriction in force. Reads only: the actions themselves are ./sanctions.ts.
 */

export type CoupleNotices = { warning: StandingSanction | null; restriction: StandingSanction | null };

/**
 * SQL: an action still standing at `now` (not lifted; a restriction not yet ended), the one rule of
 * what is in force: the notices show it, and only it may be appealed (./appeals.ts).
 */
export const standingNow = () =>
  and(isNull(coupleSanctions.liftedAt), or(isNull(coupleSanctions.endsAt), gt(coupleSanctions.endsAt, sql`now()`)));

export const standingColumns = {
  id: coupleSanctions.id,
  kind: coupleSanctions.kind,
  reason: coupleSanctions.reason,
  endsAt: coupleSanctions.endsAt,
  createdAt: coupleSanctions.createdAt,
};

type StandingRow = { id: string; kind: string; reason: string; endsAt: Date | string | null; createdAt: Date | string };

/** A row of standingColumns, from the driver (dates) or from JSON (the columns' names, timestamps as text). */
export const shapeStanding = (row: StandingRow): StandingSanction => ({
  id: row.id,
  kind: row.kind as SanctionKind,
  reason: row.reason,
  endsAt: row.endsAt === null ? null : new Date(row.endsAt).toISOString(),
  createdAt: new Date(row.createdAt).toISOString(),
});

/** The couple's restriction in force now, the longest one when several stand (at most one row). */
const restrictionRead = (db: Db, coupleId: SQL) =>
  db
    .select(standingColumns)
    .from(coupleSanctions)
    .where(and(eq(coupleSanctions.coupleId, coupleId), eq(coupleSanctions.kind, "restrict"), standingNow()))
    .orderBy(sql`${coupleSanctions.endsAt} desc nulls first`)
    .limit(1);

/** The warning the couple has not seen yet (shown once, before anything else), oldest first (at most one row). */
const warningRead = (db: Db, coupleId: SQL) =>
  db
    .select(standingColumns)
    .from(coupleSanctions)
    .where(
      and(
        eq(coupleSanctions.coupleId, coupleId),
        eq(coupleSanctions.kind, "warn"),
        isNull(coupleSanctions.seenAt),
        isNull(coupleSanctions.liftedAt),
      ),
    )
    .orderBy(coupleSanctions.createdAt)
    .limit(1);

/** The couple's restriction in force now, the longest one when several stand (null: none). */
export async function currentRestriction(db: Db, coupleId: string): Promise<StandingSanction | null> {
  const [row] = await restrictionRead(db, sql`${coupleId}`);
  return row ? shapeStanding(row) : null;
}

/** The warning the couple has not seen yet (null: none). */
export async function unseenWarning(db: Db, coupleId: string): Promise<StandingSanction | null> {
  const [row] = await warningRead(db, sql`${coupleId}`);
  return row ? shapeStanding(row) : null;
}

/** The JSON rows `noticesSql` answers: standingColumns by their columns' names. */
export type NoticesJson = { id: string; kind: string; reason: string; ends_at: string | null; created_at: string }[] | null;

/**
 * SQL: both notices of the couple (SQL naming it, null for none) as one JSON array, for a statement
 * that reads them beside something else: every signed-in page reads them in its session's own
 * statement (lib/auth/users.ts). Each read keeps its own order and limit inside the union.
 */
export const noticesSql = (db: Db, coupleId: SQL): SQL<NoticesJson> =>
  sql<NoticesJson>`(select json_agg(notice) from (${unionAll(warningRead(db, coupleId), restrictionRead(db, coupleId))}) notice)`;

/** What `noticesSql` read, as the pages show it (a warning's kind is 'warn', a restriction's 'restrict'). */
export function noticesOf(rows: NoticesJson): CoupleNotices {
  const shaped = (rows ?? []).map((row) => shapeStanding({ ...row, endsAt: row.ends_at, createdAt: row.created_at }));
  return { warning: shaped.find((row) => row.kind === "warn") ?? null, restriction: shaped.find((row) => row.kind === "restrict") ?? null };
}
