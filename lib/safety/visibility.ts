import "server-only";
import { and, eq, inArray, not, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { coupleBlocks, couples } from "@/db/schema";
import { coupleOfUser, notBlockedBetween, type CoupleRef } from "./blocks";
import type { SafetyReactions } from "./reactions";

/**
 * Who may see a couple: the one rule every read of another couple goes through (the directory,
 * discover and the dashboard, a couple's profile and place, nearby, forum mentions and who
 * reacted; next, messaging). A couple's own partners always see it; another couple sees it while
 * it is discoverable (spec section 4: active, and shown by its visibility flag) and no block
 * stands between the two couples either way; nobody else does. What a viewer then sees of its
 * place is the place at its privacy level (lib/locations/privacy.ts, `shapeLocation` and
 * `shownCoupleLocation`, both over the `Viewer` this rule answers).
 *
 * The rule comes in forms that agree (tests/integration/visibility.test.ts checks them against
 * each other): `viewerOf`, pure, over facts already read; `seenByOther`, the SQL a list or a read
 * filters `couples` with; `seenByViewer`, the SQL column saying whether a couple a read keeps (a
 * forum author, a mention, who reacted) may be named and linked; and `standings`, one query
 * answering how the looker stands to given couples, block direction included (a mention refuses
 * a couple blocked either way; a connection request will answer a couple that is hidden or
 * blocked the viewer with 404, and one the viewer blocked with 403 BLOCKED: both read it from the
 * same Standing).
 *
 * Couples that have met (a hello, a conversation) are held by a second rule, `standTogether`: the
 * visibility flag aside (a couple hidden from the directory still talks with those it met), the
 * same status and blocks.
 */

/** How a couple is seen: by one of its own partners, or by another couple. */
export type Viewer = "own" | "other";

/** A `couples` row of a query: the table itself or an alias of it. */
type CoupleRow = { id: AnyPgColumn; status: AnyPgColumn; isVisible: AnyPgColumn; partner1Id: AnyPgColumn; partner2Id: AnyPgColumn };

/**
 * Who looks, for the SQL forms: their couple's id (or SQL naming it, as a statement that found it
 * once reads it; null for a person without a couple, who blocks nobody and has no couple of their
 * own), or the person (an id, or SQL naming them), whose couple the statement finds itself.
 */
export type Looker = { coupleId: string | SQL | null } | { userId: string | SQL };

/** Spec section 4: discoverable while active, and shown while its visibility flag (set by partner A's completion) is on. */
export const isDiscoverable = ({ status, isVisible }: { status: string; isVisible: boolean }): boolean => status === "active" && isVisible;

/** What the rule reads of a couple, as seen from the viewer's couple. */
export type CoupleFacts = { status: string; isVisible: boolean; own: boolean; blockedEitherWay: boolean };

/** The rule, pure: "own" for its partners, "other" for another couple that may see it, null for anyone else. */
export function viewerOf(couple: CoupleFacts): Viewer | null {
  if (couple.own) return "own";
  return isDiscoverable(couple) && !couple.blockedEitherWay ? "other" : null;
}

/**
 * SQL: the couple is discoverable (`isDiscoverable`); written as the partial indexes' predicate, so
 * lists can use them, in literals: a prepared statement's generic plan cannot prove a predicate
 * over bound values, so it would scan the table and every run would be planned afresh.
 */
export const discoverable = (couple: CoupleRow = couples): SQL => sql`(${couple.status} = 'active' and ${couple.isVisible})`;

/**
 * SQL over a `couples` row (table or alias) of a read that has already left out couples blocked
 * either way (`notBlockedBetween`): the viewer's couple may see it, `viewerOf(...) !== null`:
 * their own, or a discoverable couple. False, not null, where a left join found no couple.
 */
export const seenByViewer = (viewerCouple: string | SQL, couple: CoupleRow = couples): SQL<boolean> =>
  sql<boolean>`coalesce(${or(eq(couple.id, viewerCouple), discoverable(couple))}, false)`;

/** The looker's couple as SQL: its id, or found from the person within the statement (null when they have none). */
const lookerCouple = (looker: Looker): CoupleRef | null => ("userId" in looker ? coupleOfUser(looker.userId) : looker.coupleId);

/** SQL: the couple is the looker's own (by its id, or by its partners: no subquery per statement). */
function own(looker: Looker, couple: CoupleRow): SQL | null {
  if ("userId" in looker)
    return sql`(${couple.partner1Id} = ${looker.userId} or ${couple.partner2Id} is not distinct from ${looker.userId})`;
  return looker.coupleId === null ? null : eq(couple.id, looker.coupleId);
}

/**
 * SQL over a `couples` row (table or alias): the couples another couple sees, `viewerOf(...) ===
 * "other"`: not the looker's own, discoverable, and not blocked either way.
 */
export function seenByOther(looker: Looker, couple: CoupleRow = couples): SQL {
  const viewerCouple = lookerCouple(looker);
  const ownCouple = own(looker, couple);
  if (viewerCouple === null || ownCouple === null) return discoverable(couple);
  return and(discoverable(couple), not(ownCouple), notBlockedBetween(viewerCouple, couple.id))!;
}

/**
 * SQL: two couples that have met (a hello, a conversation) still stand to each other: no block
 * either way, and neither suspended (hidden as a hidden couple is; its conversations end,
 * lib/messages/safety.ts). A couple hidden from the directory still stands to those it wrote to or
 * was written to by. A hello that does not stand is neither shown nor answered; an ended
 * conversation with a couple that does not stand shows its names and what was written (photos
 * sent included), not its profile photos; its notifications are neither listed nor counted (the
 * bell, lib/notifications/queries.ts `own`). A lifted block or suspension brings all back.
 */
export const standTogether = (one: CoupleRef, other: CoupleRef): SQL =>
  and(
    notBlockedBetween(one, other),
    sql`not exists (select 1 from ${couples} sc where sc.id in (${one}, ${other}) and sc.status <> 'active')`,
  )!;

/**
 * SQL: the other couple's name (`couples` joined as that side) while the two couples stand together
 * (`standTogether`), else null: how the data export names the couple of a hello, as the requests
 * list shows it.
 */
export const coupleNameWhileTogether = (own: CoupleRef, other: CoupleRef): SQL<string | null> =>
  sql<string | null>`case when ${standTogether(own, other)} then ${couples.coupleName} end`;

/**
 * SQL: among the couples of these people (an array of user ids: an e-mail's recipient and those it
 * names or quotes), two that no longer stand together (`standTogether`). What was written to one
 * couple about the other is then not delivered late: a block or a suspension since withholds it,
 * as it hides the notification. One couple alone is always fine (a moderator's word to the couple
 * it suspended still goes).
 */
export const coupleApartAmong = (userIds: SQL | AnyPgColumn): SQL<boolean> => sql<boolean>`exists (
  select 1 from ${couples} ax join ${couples} ay on ax.id < ay.id
  where (ax.partner1_id = any(${userIds}) or ax.partner2_id = any(${userIds}))
    and (ay.partner1_id = any(${userIds}) or ay.partner2_id = any(${userIds}))
    and not (${standTogether(sql`ax.id`, sql`ay.id`)}))`;

/** How the viewer's couple stands to a couple: the rule's answer, and which way a block stands (either may). */
export type Standing = { viewer: Viewer | null; blockedByViewer: boolean; blocksViewer: boolean };

/**
 * How the viewer's couple stands to each of `coupleIds`, in one query (the couples' primary key,
 * the blocks' primary key and its reverse index). Ids that name no couple are absent.
 */
export async function standings(db: Db, looker: Looker, coupleIds: readonly string[]): Promise<Map<string, Standing>> {
  if (coupleIds.length === 0) return new Map();
  const viewer = lookerCouple(looker) ?? sql`null::uuid`;
  const blocked = (blocker: CoupleRef, blockedCouple: CoupleRef) =>
    sql<boolean>`exists (select 1 from ${coupleBlocks} where ${coupleBlocks.blockerCoupleId} = ${blocker} and ${coupleBlocks.blockedCoupleId} = ${blockedCouple})`;
  const rows = await db
    .select({
      id: couples.id,
      status: couples.status,
      isVisible: couples.isVisible,
      own: sql<boolean>`coalesce(${own(looker, couples) ?? sql`false`}, false)`,
      blockedByViewer: blocked(viewer, couples.id),
      blocksViewer: blocked(couples.id, viewer),
    })
    .from(couples)
    .where(inArray(couples.id, [...coupleIds]));
  return new Map(
    rows.map((row) => [
      row.id,
      {
        viewer: viewerOf({ ...row, blockedEitherWay: row.blockedByViewer || row.blocksViewer }),
        blockedByViewer: row.blockedByViewer,
        blocksViewer: row.blocksViewer,
      },
    ]),
  );
}

/** How the viewer's couple stands to one couple; null when the id names none. */
export async function standing(db: Db, looker: Looker, coupleId: string): Promise<Standing | null> {
  return (await standings(db, looker, [coupleId])).get(coupleId) ?? null;
}

/**
 * How the looking couple stands to a couple it names by id (to block or report it), while it knows
 * it: it sees it by the rule, it blocked it, or a feature shows it something of that couple whatever
 * the directory's visibility (`SafetyReactions.shows`: its words in the forum, their conversation, a
 * hello). Null otherwise: a couple hidden from it (hidden, suspended, or blocking it) answers as an
 * id that names no couple, so naming one never tells whether a hidden couple exists.
 */
export async function knownTo(
  db: Db,
  lookerCoupleId: string,
  coupleId: string,
  reactions: readonly SafetyReactions[],
): Promise<Standing | null> {
  const seen = await standing(db, { coupleId: lookerCoupleId }, coupleId);
  if (!seen) return null;
  if (seen.viewer !== null || seen.blockedByViewer) return seen;
  for (const reaction of reactions) if (await reaction.shows?.(db, lookerCoupleId, coupleId)) return seen;
  return null;
}
