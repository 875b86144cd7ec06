/**
 * 'Most in common' (the directory's third sort): interests in common are the popcount of both
 * couples' interest masks ANDed (couples.match_interests_mask, migration 0011). The count depends
 * on the viewer, so no index holds the order: ranking the network reads every discoverable
 * couple's mask. A couple's ranking is kept instead (db/schema/directory.ts), about once a day,
 * and a page ranks the kept couples and those changed since, on live rows.
 */
import "server-only";
import { and, desc, eq, ne, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { unlessUnderWay } from "@/db/transaction";
import { couples, directoryCommonRanks } from "@/db/schema";
import { MATCH_CHANGES_TAKEN, matchChangedSince } from "@/lib/couples/match-changes";
import { afterResponse } from "@/lib/http/after-response";
import { discoverable } from "@/lib/safety/visibility";

/** How many of a couple's ranking are kept: the first ten pages of the directory's 20. */
export const COMMON_STORED = 200;
/**
 * A kept ranking read a day after it was computed is computed again: couples hidden or gone since
 * leave it thinner, and its pages would fall back to ranking the network sooner.
 */
const COMMON_TTL = sql`interval '1 day'`;

/** The viewer's interests as a mask: an init plan, computed once however the statement is planned. */
export const viewerMask = (mine: readonly string[]): SQL => sql`(select public.interest_mask(${sql.param(mine)}::text[]))`;
/** The interests a couple shares with the viewer, as a mask (0: none). */
export const sharedMask = (mask: SQL): SQL => sql`(${couples.matchInterestsMask} & ${mask})`;
/** How many interests a couple shares with the viewer. */
export const commonCount = (mask: SQL) => sql<number>`bit_count(${sharedMask(mask)}::bit(64))::int`;

/** A couple's place in the ranking: more in common first, then the greater id. */
export type CommonKey = { common: number; id: string };

/** Whether `key` ranks at or above `floor` (uuids order as their lowercase text does). */
export const reachesFloor = (key: CommonKey, floor: CommonKey): boolean =>
  key.common > floor.common || (key.common === floor.common && key.id >= floor.id);

/**
 * The couples a page of 'most in common' may hold: every couple sharing an interest that ranks at
 * or above `floor` is among `ids` (null floor: every couple sharing one is). Couples not among
 * them have not changed since they ranked below it. Who may see them, and the filters, are the
 * page's to check.
 */
export type CommonRanking = { ids: string[]; floor: CommonKey | null };

/** Ranks the discoverable couples sharing an interest with the viewer's couple, keeps the first COMMON_STORED, and says which. */
async function computeRanking(db: Db, coupleId: string, mine: readonly string[]): Promise<CommonRanking> {
  const mask = viewerMask(mine);
  const common = commonCount(mask);
  const rows = await db
    .select({ id: couples.id, common })
    .from(couples)
    .where(and(discoverable(), ne(couples.id, coupleId), sql`${sharedMask(mask)} <> 0`))
    .orderBy(desc(common), desc(couples.id))
    .limit(COMMON_STORED + 1);
  const ids = rows.slice(0, COMMON_STORED).map((row) => row.id);
  const last = rows[COMMON_STORED - 1];
  const floor = rows.length > COMMON_STORED && last ? { common: Number(last.common), id: last.id } : null;
  // Stamped after the read; matchChangedSince's minute takes in what committed between the two.
  const kept = {
    viewerMask: sql`${mask}`,
    coupleIds: ids,
    floorCommon: floor?.common ?? null,
    floorId: floor?.id ?? null,
    computedAt: sql`now()`,
  };
  await db
    .insert(directoryCommonRanks)
    .values({ coupleId, ...kept })
    .onConflictDoUpdate({ target: directoryCommonRanks.coupleId, set: kept });
  return { ids, floor };
}

/**
 * The viewer's couple's ranking with the couples sharing an interest with it whose match inputs
 * changed since it was computed (lib/couples/match-changes.ts). Computed again, on this request,
 * when there is none, it was made from other interests than the couple's now, or more than
 * MATCH_CHANGES_TAKEN couples changed since. One a day old still holds every couple at or above
 * its floor (those changed since are taken in), only thinner: it answers, and is computed again
 * after the response (outside a request, at once).
 */
export async function commonRanking(db: Db, coupleId: string, mine: readonly string[]): Promise<CommonRanking> {
  const mask = viewerMask(mine);
  const changed = db
    .select({ id: couples.id })
    .from(couples)
    .where(and(discoverable(), matchChangedSince(sql`${directoryCommonRanks.computedAt}`), sql`${sharedMask(mask)} <> 0`))
    .orderBy(couples.matchChangedAt)
    .limit(MATCH_CHANGES_TAKEN + 1);
  const [kept] = await db
    .select({
      ids: directoryCommonRanks.coupleIds,
      floorCommon: directoryCommonRanks.floorCommon,
      floorId: directoryCommonRanks.floorId,
      sameInterests: sql<boolean>`${directoryCommonRanks.viewerMask} = ${mask}`,
      aged: sql<boolean>`${directoryCommonRanks.computedAt} <= now() - ${COMMON_TTL}`,
      changed: sql<string[]>`array(${changed})`,
    })
    .from(directoryCommonRanks)
    .where(eq(directoryCommonRanks.coupleId, coupleId));
  if (!kept?.sameInterests || kept.changed.length > MATCH_CHANGES_TAKEN) return computeRanking(db, coupleId, mine);
  // Many reads of an aged ranking at once (tabs, partners) rank it again once.
  const rankAgain = () => unlessUnderWay(db, `directory-common:${coupleId}`, (tx) => computeRanking(tx, coupleId, mine));
  if (kept.aged && !afterResponse(rankAgain)) return computeRanking(db, coupleId, mine);
  const floor = kept.floorCommon !== null && kept.floorId !== null ? { common: kept.floorCommon, id: kept.floorId } : null;
  return { ids: [...new Set([...kept.ids, ...kept.changed])], floor };
}
