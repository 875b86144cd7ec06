import "server-only";
import { and, asc, count, countDistinct, desc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { resultRows } from "@/db/result-rows";
import { connectionRequests, couples, coupleSanctions, heldRequests } from "@/db/schema";
import type { SafetyReactions } from "./reactions";
import { lockedCouple, sanctionCouple } from "./sanctions";
import {
  acceptanceSince,
  autoRestrictSince,
  heldNoteSince,
  holdsNextRequest,
  normalizeNote,
  restrictsByReports,
  trustLevel,
  type TrustLevel,
} from "./spam-rules";

/**
 * The spam rules' reads and writes (the thresholds are lib/safety/spam-rules.ts): a couple's trust
 * level, holding a hello whose note went to too many couples, and restricting a couple reported
 * by too many couples, until a moderator decides.
 */

/** The couple's trust level now: its age, and its requests sent and accepted in the last 30 days. */
export async function trustLevelOf(db: Db, couple: { coupleId: string; coupleCreatedAt: Date }): Promise<TrustLevel> {
  const now = new Date();
  const [row] = await db
    .select({ sent: count(), accepted: sql<number>`count(*) filter (where ${connectionRequests.status} = 'accepted')::int` })
    .from(connectionRequests)
    .where(and(eq(connectionRequests.fromCoupleId, couple.coupleId), gt(connectionRequests.createdAt, acceptanceSince(now))));
  return trustLevel({ createdAt: couple.coupleCreatedAt, sent: Number(row?.sent ?? 0), accepted: Number(row?.accepted ?? 0) }, now);
}

/** Of these couples, those below trusted now (new, or mostly unanswered): one grouped read for them all. */
export async function lowTrustCouples(db: Db, coupleIds: readonly string[]): Promise<Set<string>> {
  if (coupleIds.length === 0) return new Set();
  const now = new Date();
  const rows = await db
    .select({
      id: couples.id,
      createdAt: couples.createdAt,
      sent: sql<number>`count(${connectionRequests.id})::int`,
      accepted: sql<number>`count(*) filter (where ${connectionRequests.status} = 'accepted')::int`,
    })
    .from(couples)
    .leftJoin(
      connectionRequests,
      and(eq(connectionRequests.fromCoupleId, couples.id), gt(connectionRequests.createdAt, acceptanceSince(now))),
    )
    .where(inArray(couples.id, [...coupleIds]))
    .groupBy(couples.id);
  return new Set(
    rows
      .filter((row) => trustLevel({ createdAt: row.createdAt, sent: Number(row.sent), accepted: Number(row.accepted) }, now) !== "trusted")
      .map((row) => row.id),
  );
}

/**
 * Whether the couple's next hello is held: the same note (normalised as `normalizeNote` does: case,
 * spaces and digits) already went to HELD_NOTE_COUPLES couples in the window, held or delivered.
 * One read on the sender's indexes.
 */
export async function holdsHello(tx: Db, fromCoupleId: string, note: string): Promise<boolean> {
  const since = heldNoteSince(new Date()).toISOString();
  const result = await tx.execute(sql`
    select count(distinct to_couple_id)::int as couples from (
      select to_couple_id, note from connection_requests where from_couple_id = ${fromCoupleId} and created_at > ${since}::timestamptz
      union all
      select to_couple_id, note from held_requests where from_couple_id = ${fromCoupleId} and created_at > ${since}::timestamptz
    ) sent where regexp_replace(lower(note), '[0-9[:space:]]+', '', 'g') = ${normalizeNote(note)}`);
  return holdsNextRequest(resultRows<{ couples: number }>(result)[0]?.couples ?? 0);
}

/** Keeps a held hello for the moderators (the couple asked never sees it). */
export async function holdHello(
  tx: Db,
  hello: { fromCoupleId: string; toCoupleId: string; sentByUserId: string; note: string },
): Promise<void> {
  await tx.insert(heldRequests).values(hello);
}

/**
 * Deleting an account: the hellos held from the person go, in its transaction (a moderator would
 * still read their note, and 'Deliver' would send their words in their couple's name).
 * `sent_by_user_id` has no foreign key; a cascading one would need a migration, and this delete
 * in the deletion's transaction is enough (a person's hellos are always from their own couple).
 */
export async function dropHeldHellosOf(tx: Db, userId: string, coupleId: string): Promise<void> {
  await tx.delete(heldRequests).where(and(eq(heldRequests.fromCoupleId, coupleId), eq(heldRequests.sentByUserId, userId)));
}

/** The hellos the person sent that moderators hold, newest first (the data export): to whom, their note, 'in review'. */
export async function heldHellosSentBy(db: Db, userId: string, coupleId: string | null) {
  if (!coupleId) return [];
  const rows = await db
    .select({ toCoupleName: couples.coupleName, note: heldRequests.note, createdAt: heldRequests.createdAt })
    .from(heldRequests)
    .innerJoin(couples, eq(couples.id, heldRequests.toCoupleId))
    .where(and(eq(heldRequests.fromCoupleId, coupleId), eq(heldRequests.sentByUserId, userId)))
    .orderBy(desc(heldRequests.createdAt));
  return rows.map((row) => ({ ...row, status: "in review" as const }));
}

export type HeldCouple = { coupleId: string; coupleName: string; held: number; note: string; since: string };

/** The couples with held hellos, oldest first (the queue), but those held for the reader's own couple (the couple asked never sees them). */
export async function couplesWithHeldHellos(db: Db, reader: { coupleId: string | null }, limit = 100): Promise<HeldCouple[]> {
  const rows = await db
    .select({
      coupleId: heldRequests.fromCoupleId,
      coupleName: couples.coupleName,
      held: countDistinct(heldRequests.id),
      note: sql<string>`min(${heldRequests.note})`,
      since: sql<string>`min(${heldRequests.createdAt})`,
    })
    .from(heldRequests)
    .innerJoin(couples, eq(couples.id, heldRequests.fromCoupleId))
    .where(sql`${heldRequests.toCoupleId} is distinct from ${reader.coupleId}`)
    .groupBy(heldRequests.fromCoupleId, couples.coupleName)
    .orderBy(asc(sql`min(${heldRequests.createdAt})`))
    .limit(limit);
  return rows.map((row) => ({ ...row, held: Number(row.held), since: new Date(row.since).toISOString() }));
}

/**
 * After a report of a message, a hello or a couple: a couple reported for its messages or
 * hellos by AUTO_RESTRICT_COUPLES different couples in the window is restricted until a moderator
 * decides (no end; by the rules, no moderator), unless such a restriction already stands. A report
 * of the couple counts only from a couple it sent a hello to (anyone may report a profile: the
 * rule is about what it wrote). Only reports still open count, made after a moderator lifted its
 * last such restriction: reports dismissed or acted on, and a lift, are a decision that stands.
 */
export async function restrictIfReportedByMany(tx: Db, coupleId: string, reactions: readonly SafetyReactions[]): Promise<boolean> {
  // Counted and checked under the couple's lock (sanctionCouple's): two reports at one instant restrict once.
  await lockedCouple(tx, coupleId);
  const windowStart = autoRestrictSince(new Date()).toISOString();
  // greatest() ignores a null: the window alone when no such restriction was ever lifted.
  const since = sql`greatest(${windowStart}::timestamptz, (select max(s.lifted_at) from couple_sanctions s
    where s.couple_id = ${coupleId} and s.kind = 'restrict' and s.created_by_user_id is null))`;
  const result = await tx.execute(sql`
    select count(distinct reporter_couple_id)::int as couples from (
      select r.reporter_couple_id from reports r
        where r.target_type = 'couple' and r.target_id = ${coupleId} and r.status = 'open' and r.created_at > ${since}
          and exists (select 1 from connection_requests c where c.from_couple_id = ${coupleId} and c.to_couple_id = r.reporter_couple_id)
      union all
      select r.reporter_couple_id from reports r join messages m on r.target_type = 'message' and m.id = r.target_id
        where m.author_couple_id = ${coupleId} and r.status = 'open' and r.created_at > ${since}
      union all
      select r.reporter_couple_id from reports r join connection_requests c on r.target_type = 'request' and c.id = r.target_id
        where c.from_couple_id = ${coupleId} and r.status = 'open' and r.created_at > ${since}
    ) reporting`);
  if (!restrictsByReports(resultRows<{ couples: number }>(result)[0]?.couples ?? 0)) return false;
  const [standing] = await tx
    .select({ id: coupleSanctions.id })
    .from(coupleSanctions)
    .where(
      and(
        eq(coupleSanctions.coupleId, coupleId),
        eq(coupleSanctions.kind, "restrict"),
        isNull(coupleSanctions.endsAt),
        isNull(coupleSanctions.liftedAt),
      ),
    )
    .limit(1);
  if (standing) return false;
  await sanctionCouple(
    tx,
    null,
    coupleId,
    { kind: "restrict", reason: "harassment", note: "Reported by several couples: restricted until a moderator decides." },
    reactions,
  );
  return true;
}
