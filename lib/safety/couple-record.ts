import "server-only";
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { resultRows } from "@/db/result-rows";
import { couples } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { concernsOwnCouple, leftToAnother, type Moderator } from "./moderators";
import { reportingCouple, reportsAgainst } from "./reports-against";
import { QUEUE_COUNT_CAP, upToCap } from "./rules";
import { sanctionsOf } from "./sanctions";

/**
 * A couple as moderators see it on its page in /moderation: how old it is, the reports against it
 * (by reason, and by how many different couples), the blocks it received, its hello requests of
 * the last 30 days, every earlier action with its appeal, and its held hellos. Each figure is one indexed count
 * (the reports and the blocks: of at most QUEUE_COUNT_CAP + 1 rows).
 */
export type CoupleRecord = {
  couple: { id: string; coupleName: string; status: string; createdAt: string; ageDays: number; partnerIds: string[] };
  /**
   * Null on the reader's own couple: a couple is never told it was reported or blocked (nor a moderator of it).
   * Counted among QUEUE_COUNT_CAP + 1 of the reports against it, as the queue's rows: exact below the cap;
   * `capped` (every reason's) when there are more, then each count is at least what it says and the page reads '100+'.
   */
  reports: { reason: string; reports: number; couples: number; capped: boolean }[] | null;
  /** Null on the reader's own couple. Counted among QUEUE_COUNT_CAP + 1 of them (`upToCap`), as the reports. */
  blocksReceived: { count: number; capped: boolean } | null;
  hellos30Days: { sent: number; accepted: number; unanswered: number };
  /** `bySpamRules`: no moderator took it (never said on the reader's own couple, whose actions name no one). */
  actions: (Awaited<ReturnType<typeof sanctionsOf>>[number] & { bySpamRules: boolean })[];
  /** Why another moderator acts on it, not the reader (`leftToAnother`: their own couple, or one their couple reported); null: the reader may. */
  leftToAnother: "own" | "reported" | null;
  /** Its hellos the same-note rule held, oldest first, for a moderator to deliver or drop. */
  held: { id: string; toCouple: { id: string; coupleName: string }; note: string; createdAt: string }[];
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** The reasons' counts of one capped read (`upToCap`): the read's total says whether it was capped. */
function cappedReasons(read: { reason: string; reports: number; couples: number }[]): NonNullable<CoupleRecord["reports"]> {
  const { capped } = upToCap(read.reduce((total, row) => total + row.reports, 0));
  return read.map((row) => ({ ...row, reports: upToCap(row.reports).count, couples: upToCap(row.couples).count, capped }));
}

/**
 * The record as `reader` may see it: on their own couple (`concernsOwnCouple`), as the couple
 * itself knows it: the actions without who took them or their notes (a lift's reason is its note:
 * the log's), and neither the reports against it nor the blocks it received.
 */
export async function coupleRecord(db: Db, coupleId: string, reader: Pick<Moderator, "coupleId">): Promise<CoupleRecord> {
  const [couple] = await db
    .select({
      id: couples.id,
      coupleName: couples.coupleName,
      status: couples.status,
      createdAt: couples.createdAt,
      partner1Id: couples.partner1Id,
      partner2Id: couples.partner2Id,
    })
    .from(couples)
    .where(eq(couples.id, coupleId));
  if (!couple) throw new AppError("NOT_FOUND", "This couple does not exist.");
  const own = concernsOwnCouple(reader, coupleId);
  // On one's own couple the reports and blocks are never read, not read and dropped.
  const [reports, blocks, hellos, actions, held, leftTo] = await Promise.all([
    // Capped as the queue's counts (lib/safety/rules.ts QUEUE_COUNT_CAP): CAP + 1 of its reports, however many a
    // burst filed, the first its targets' indexes give (no index orders a couple's reports of every kind by age).
    own
      ? null
      : db.execute(sql`
          select reason, count(*)::int as reports, count(distinct ${reportingCouple({ id: sql`id`, reporterCoupleId: sql`reporter_couple_id` })})::int as couples
          from (select id, reason, reporter_couple_id from (${reportsAgainst(coupleId)}) against limit ${QUEUE_COUNT_CAP + 1}) counted
          group by reason order by count(*) desc, reason`),
    own
      ? null
      : db.execute(sql`
          select count(*)::int as count
          from (select 1 from couple_blocks where blocked_couple_id = ${coupleId} limit ${QUEUE_COUNT_CAP + 1}) counted_blocks`),
    db.execute(sql`
      select count(*)::int as sent,
             count(*) filter (where status = 'accepted')::int as accepted,
             count(*) filter (where status = 'pending')::int as unanswered
      from connection_requests where from_couple_id = ${coupleId} and created_at > now() - interval '30 days'
        and to_couple_id is not null`),
    sanctionsOf(db, coupleId),
    db.execute(sql`
      select h.id, h.note, h.created_at as "createdAt", c.id as "toCoupleId", c.couple_name as "toCoupleName"
      from held_requests h join couples c on c.id = h.to_couple_id
      where h.from_couple_id = ${coupleId} and h.to_couple_id is distinct from ${reader.coupleId}
      order by h.created_at, h.id limit 200`),
    leftToAnother(db, reader, coupleId),
  ]);
  return {
    couple: {
      id: couple.id,
      coupleName: couple.coupleName,
      status: couple.status,
      createdAt: couple.createdAt.toISOString(),
      ageDays: Math.floor((Date.now() - couple.createdAt.getTime()) / DAY_MS),
      partnerIds: [couple.partner1Id, couple.partner2Id].filter((id): id is string => id !== null),
    },
    reports: reports === null ? null : cappedReasons(resultRows<{ reason: string; reports: number; couples: number }>(reports)),
    blocksReceived: blocks === null ? null : upToCap(resultRows<{ count: number }>(blocks)[0]?.count ?? 0),
    hellos30Days: resultRows<CoupleRecord["hellos30Days"]>(hellos)[0] ?? { sent: 0, accepted: 0, unanswered: 0 },
    actions: actions.map((action) =>
      own
        ? { ...action, note: null, createdByUserId: null, liftReason: null, bySpamRules: false }
        : { ...action, bySpamRules: action.createdByUserId === null },
    ),
    leftToAnother: leftTo,
    held: resultRows<{ id: string; note: string; createdAt: string | Date; toCoupleId: string; toCoupleName: string }>(held).map((row) => ({
      id: row.id,
      toCouple: { id: row.toCoupleId, coupleName: row.toCoupleName },
      note: row.note,
      createdAt: new Date(row.createdAt).toISOString(),
    })),
  };
}
