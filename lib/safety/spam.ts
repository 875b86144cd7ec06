import "server-only";
import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, ne, notExists, sql, type Column, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { resultRows } from "@/db/result-rows";
import { connectionRequests, couples, coupleSanctions, heldRequests } from "@/db/schema";
import { cursorAfter, readCursor, rowsAfter } from "@/lib/pagination/cursor";
import { keysetPage, type KeysetPage } from "@/lib/pagination/page";
import { holdPersonRow } from "@/lib/users/presence";
import type { SafetyReactions } from "./reactions";
import { HELD_QUEUE_PAGE_SIZE, QUEUE_COUNT_CAP, upToCap } from "./rules";
import { mayDecideFor } from "./moderators";
import { reportingCouple } from "./reports-against";
import { liftLocked, lockedCouple, sanctionCouple } from "./sanctions";
import type { Moderator } from "./moderators";
import { coupleNameWhileTogether } from "./visibility";
import {
  acceptanceSince,
  AUTO_RESTRICT_LIFTED,
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

/**
 * Only hellos whose asked couple still stands weigh on the sender's trust: one to a couple since
 * deleted (kept for the sender, 'closed') could never be answered, and says nothing of the sender.
 */
const askedCoupleStands = isNotNull(connectionRequests.toCoupleId);

/** The couple's trust level now: its age, and its requests sent and accepted in the last 30 days. */
export async function trustLevelOf(db: Db, couple: { coupleId: string; coupleCreatedAt: Date }): Promise<TrustLevel> {
  const now = new Date();
  const [row] = await db
    .select({ sent: count(), accepted: sql<number>`count(*) filter (where ${connectionRequests.status} = 'accepted')::int` })
    .from(connectionRequests)
    .where(
      and(eq(connectionRequests.fromCoupleId, couple.coupleId), gt(connectionRequests.createdAt, acceptanceSince(now)), askedCoupleStands),
    );
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
      and(eq(connectionRequests.fromCoupleId, couples.id), gt(connectionRequests.createdAt, acceptanceSince(now)), askedCoupleStands),
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
 * One read on the sender's indexes; the notes are compared here, by the one `normalizeNote`, as
 * Postgres's `lower` and `[:space:]` follow the database's locale (a no-break space is no space
 * in C.UTF-8) and a note padded with such spaces would never be held. The window's notes are few:
 * every hello, held or sent, counts against the daily limit.
 */
export async function holdsHello(tx: Db, fromCoupleId: string, note: string): Promise<boolean> {
  const since = heldNoteSince(new Date()).toISOString();
  const result = await tx.execute(sql`
    select to_couple_id as "toCoupleId", note from connection_requests where from_couple_id = ${fromCoupleId} and created_at > ${since}::timestamptz
    union all
    select to_couple_id, note from held_requests where from_couple_id = ${fromCoupleId} and created_at > ${since}::timestamptz`);
  const same = normalizeNote(note);
  const asked = new Set<string>();
  for (const row of resultRows<{ toCoupleId: string | null; note: string }>(result))
    if (row.toCoupleId !== null && normalizeNote(row.note) === same) asked.add(row.toCoupleId);
  return holdsNextRequest(asked.size);
}

/**
 * Keeps a held hello for the moderators (the couple asked never sees it). One per pair, as one
 * open request is (the caller holds the pair's lock): sent again (a double click, both partners at
 * once), the hello already held is the one the moderators decide.
 */
export async function holdHello(
  tx: Db,
  hello: { fromCoupleId: string; toCoupleId: string; sentByUserId: string; note: string },
): Promise<void> {
  const [already] = await tx
    .select({ id: heldRequests.id })
    .from(heldRequests)
    .where(and(eq(heldRequests.fromCoupleId, hello.fromCoupleId), eq(heldRequests.toCoupleId, hello.toCoupleId)))
    .limit(1);
  if (already) return;
  // sent_by_user_id has no foreign key: a hello is not held after its sender's erasure (dropHeldHellosOf).
  await holdPersonRow(tx, hello.sentByUserId);
  await tx.insert(heldRequests).values(hello);
}

/**
 * Deleting an account: the hellos held from the person go, in its transaction (a moderator would
 * still read their note, and 'Deliver' would send their words in their couple's name).
 * `sent_by_user_id` has no foreign key; a cascading one would need a migration, and this delete
 * in the deletion's transaction is enough (a person's hellos are always from their own couple),
 * with holdHello holding the sender's row, so none is held after it.
 */
export async function dropHeldHellosOf(tx: Db, userId: string, coupleId: string): Promise<void> {
  await tx.delete(heldRequests).where(and(eq(heldRequests.fromCoupleId, coupleId), eq(heldRequests.sentByUserId, userId)));
}

/**
 * The hellos the person sent that moderators hold, newest first (the data export): to whom (named
 * only while the two couples stand together, as a sent hello is), their note, 'in review'.
 */
export async function heldHellosSentBy(db: Db, userId: string, coupleId: string | null) {
  if (!coupleId) return [];
  const rows = await db
    .select({
      toCoupleName: coupleNameWhileTogether(heldRequests.fromCoupleId, heldRequests.toCoupleId),
      note: heldRequests.note,
      createdAt: heldRequests.createdAt,
    })
    .from(heldRequests)
    .innerJoin(couples, eq(couples.id, heldRequests.toCoupleId))
    .where(and(eq(heldRequests.fromCoupleId, coupleId), eq(heldRequests.sentByUserId, userId)))
    .orderBy(desc(heldRequests.createdAt));
  return rows.map((row) => ({ ...row, status: "in review" as const }));
}

/**
 * A couple in the held hellos' queue: its oldest held hello (the row's place, its note and since) and
 * how many it has held, exact up to QUEUE_COUNT_CAP; `capped` when it has more ('100+ held').
 */
export type HeldCouple = { id: string; coupleId: string; coupleName: string; held: number; capped: boolean; note: string; since: string };

const HELD_QUEUE_CONTEXT = "moderation-held";
const INVALID_HELD_CURSOR = "This page of the held hellos is no longer available. Please reload.";

/** Another held hello of the row's couple, older than the row's, and one counted with it. */
const olderHeld = alias(heldRequests, "older_held");
const countedHeld = alias(heldRequests, "counted_held");

/** The held hellos the reader may read: none held for their own couple (the couple asked never sees them). */
const readableBy = (reader: { coupleId: string | null }, toCoupleId: Column) =>
  reader.coupleId === null ? undefined : ne(toCoupleId, reader.coupleId);

/**
 * The couples with held hellos the reader may read and decide (`mayDecideFor`: never their own
 * couple, nor one their couple reported), oldest first, a keyset page at a time: a row
 * is its couple's oldest such hello (none older), read in the order of held_requests_queue_idx, so
 * a couple with a hundred held is one row and the page goes on past it; its count is read for the
 * page's rows only. A couple whose hellos were all decided has no row.
 */
export async function couplesWithHeldHellos(
  db: Db,
  reader: { coupleId: string | null },
  cursorText?: string,
): Promise<KeysetPage<HeldCouple>> {
  const cursor = readCursor(HELD_QUEUE_CONTEXT, cursorText, INVALID_HELD_CURSOR);
  const rows = await db
    .select({
      id: heldRequests.id,
      coupleId: heldRequests.fromCoupleId,
      coupleName: couples.coupleName,
      note: heldRequests.note,
      createdAt: heldRequests.createdAt,
      // Counted up to the cap and one more (held_requests_from_idx, a LIMITed scan): a sender with thousands held reads CAP + 1.
      held: sql<number>`(select count(*)::int from (${db
        .select({ one: sql`1` })
        .from(countedHeld)
        .where(and(eq(countedHeld.fromCoupleId, heldRequests.fromCoupleId), readableBy(reader, countedHeld.toCoupleId)))
        .limit(QUEUE_COUNT_CAP + 1)}) as capped_held)`,
    })
    .from(heldRequests)
    .innerJoin(couples, eq(couples.id, heldRequests.fromCoupleId))
    .where(
      and(
        readableBy(reader, heldRequests.toCoupleId),
        mayDecideFor(reader, heldRequests.fromCoupleId),
        cursor ? rowsAfter(heldRequests.createdAt, heldRequests.id, cursor, "asc") : undefined,
        notExists(
          db
            .select({ id: olderHeld.id })
            .from(olderHeld)
            .where(
              and(
                eq(olderHeld.fromCoupleId, heldRequests.fromCoupleId),
                readableBy(reader, olderHeld.toCoupleId),
                sql`(${olderHeld.createdAt}, ${olderHeld.id}) < (${heldRequests.createdAt}, ${heldRequests.id})`,
              ),
            ),
        ),
      ),
    )
    .orderBy(asc(heldRequests.createdAt), asc(heldRequests.id))
    .limit(HELD_QUEUE_PAGE_SIZE + 1);
  return keysetPage(
    rows,
    HELD_QUEUE_PAGE_SIZE,
    ({ createdAt, held, ...row }) => {
      const { count, capped } = upToCap(Number(held));
      return { ...row, held: count, capped, since: createdAt.toISOString() };
    },
    (last) => cursorAfter(HELD_QUEUE_CONTEXT, { sortKey: last.createdAt, id: last.id }),
  );
}

/**
 * SQL: how many different couples reported the couple for its messages or hellos (a report of the
 * couple counting only from a couple it sent a hello to: anyone may report a profile, the rule is
 * about what it wrote) since `since`, among reports of the given statuses: the one count the rule
 * restricts by and lifts by.
 */
function reportingCouplesSql(coupleId: string, since: SQL, statuses: readonly ("open" | "removed")[]): SQL {
  const statusList = sql.join(
    statuses.map((status) => sql`${status}`),
    sql`, `,
  );
  // A report that outlived its reporter's couple counts once (a couple's own, with no couple to have had a hello: not at all).
  const reporting = reportingCouple({ id: sql`r.id`, reporterCoupleId: sql`r.reporter_couple_id` });
  return sql`
    select count(distinct reporting_couple)::int as couples from (
      select ${reporting} as reporting_couple from reports r
        where r.target_type = 'couple' and r.target_id = ${coupleId} and r.status in (${statusList}) and r.created_at > ${since}
          and exists (select 1 from connection_requests c where c.from_couple_id = ${coupleId} and c.to_couple_id = r.reporter_couple_id)
      union all
      select ${reporting} from reports r join messages m on r.target_type = 'message' and m.id = r.target_id
        where m.author_couple_id = ${coupleId} and r.status in (${statusList}) and r.created_at > ${since}
      union all
      select ${reporting} from reports r join connection_requests c on r.target_type = 'request' and c.id = r.target_id
        where c.from_couple_id = ${coupleId} and r.status in (${statusList}) and r.created_at > ${since}
    ) reporting`;
}

const reportingCouples = async (tx: Db, query: SQL): Promise<number> =>
  resultRows<{ couples: number }>(await tx.execute(query))[0]?.couples ?? 0;

/** SQL: the couple's restriction standing until a moderator decides (no end, not lifted). */
const openEndedRestriction = (coupleId: string) =>
  and(
    eq(coupleSanctions.coupleId, coupleId),
    eq(coupleSanctions.kind, "restrict"),
    isNull(coupleSanctions.endsAt),
    isNull(coupleSanctions.liftedAt),
  );

/** SQL: the latest time a moderator lifted a restriction the rule made on the couple (null: never). */
const lastRuleLift = (coupleId: string) => sql`(select max(s.lifted_at) from couple_sanctions s
    where s.couple_id = ${coupleId} and s.kind = 'restrict' and s.created_by_user_id is null)`;

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
  const since = sql`greatest(${windowStart}::timestamptz, ${lastRuleLift(coupleId)})`;
  if (!restrictsByReports(await reportingCouples(tx, reportingCouplesSql(coupleId, since, ["open"])))) return false;
  const [standing] = await tx.select({ id: coupleSanctions.id }).from(coupleSanctions).where(openEndedRestriction(coupleId)).limit(1);
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

/** A standing restriction the rule made, as `heldRuleRestriction` found it. */
export type RuleRestriction = { id: string; createdAt: Date };

/**
 * Before a moderator's dismissal of a report against the couple writes the reports: the standing
 * restriction the rule made, if any, with the couple locked for its lifting (lockedCouple: its
 * people, then the couple), as an action on the couple takes them before the report it is taken
 * from, so the two never wait each on the other.
 */
export async function heldRuleRestriction(tx: Db, coupleId: string): Promise<RuleRestriction | undefined> {
  const standing = await ruleRestriction(tx, coupleId);
  if (standing) await lockedCouple(tx, coupleId);
  return standing;
}

/**
 * After a moderator dismissed a report against the couple: the restriction the rule made stood
 * "until a moderator decides", so once the reports left standing of those it counted (still open,
 * or upheld: removed) come from fewer than AUTO_RESTRICT_COUPLES couples, the dismissal is that
 * decision and lifts it, in the moderator's name (logged, the couple told, AUTO_RESTRICT_LIFTED).
 * The reports it counted: from the window before it was made (after the last such lift), and any since.
 * `standing`: heldRuleRestriction's, taken before the dismissal wrote the reports.
 */
export async function liftRuleRestrictionIfDismissed(
  tx: Db,
  moderator: Moderator,
  coupleId: string,
  standing: RuleRestriction,
  reactions: readonly SafetyReactions[],
): Promise<void> {
  const madeFrom = autoRestrictSince(standing.createdAt).toISOString();
  const since = sql`greatest(${madeFrom}::timestamptz, ${lastRuleLift(coupleId)})`;
  if (restrictsByReports(await reportingCouples(tx, reportingCouplesSql(coupleId, since, ["open", "removed"])))) return;
  await liftLocked(tx, moderator, standing.id, AUTO_RESTRICT_LIFTED, reactions, "lift");
}

/** The standing restriction the rule itself made (no moderator), or none. */
async function ruleRestriction(tx: Db, coupleId: string): Promise<RuleRestriction | undefined> {
  const [standing] = await tx
    .select({ id: coupleSanctions.id, createdAt: coupleSanctions.createdAt })
    .from(coupleSanctions)
    .where(and(openEndedRestriction(coupleId), isNull(coupleSanctions.createdByUserId)))
    .limit(1);
  return standing;
}
