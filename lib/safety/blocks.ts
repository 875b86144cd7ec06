import "server-only";
import { and, eq, or, sql, type Column, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { oneAtATime } from "@/db/transaction";
import { coupleBlocks } from "@/db/schema";
import { AppError } from "@/lib/errors";

/**
 * Couple-level blocks: a block hides both couples from each other, for both partners
 * and in both directions, so every read asks one question: "is there a row either way?".
 */

/** The lock of the change between two couples, whichever is named first. */
const pairKey = (one: string, other: string) => `couple-pair:${one < other ? `${one}:${other}` : `${other}:${one}`}`;

/**
 * One change at a time between two couples (on any instance): a hello sent or answered, a block
 * made or lifted. An answer that opens their conversation and a block that ends it never cross.
 */
export const lockCouplePair = (tx: Db, one: string, other: string): Promise<void> => oneAtATime(tx, pairKey(one, other));

/** One couple's pair with each of several others (lockCouplePair), taken in one order by all: two such writers never wait each on the other. */
export async function lockCouplePairs(tx: Db, one: string, others: readonly string[]): Promise<void> {
  const keys = [...new Set(others.filter((other) => other !== one).map((other) => pairKey(one, other)))].sort();
  for (const key of keys) await oneAtATime(tx, key);
}

/** A couple id given as a value or as a column of the outer query. */
export type CoupleRef = string | Column | SQL;

/** SQL: no block exists between the two couples, in either direction. */
export function notBlockedBetween(viewerCouple: CoupleRef, other: CoupleRef): SQL {
  return sql`not exists (select 1 from ${coupleBlocks} where (${coupleBlocks.blockerCoupleId} = ${viewerCouple} and ${coupleBlocks.blockedCoupleId} = ${other}) or (${coupleBlocks.blockerCoupleId} = ${other} and ${coupleBlocks.blockedCoupleId} = ${viewerCouple}))`;
}

/** SQL: the couple is in no block at all, made or received (a null couple, a deleted member's, is in none). */
export function inNoBlock(couple: CoupleRef): SQL {
  return sql`not exists (select 1 from ${coupleBlocks} where ${coupleBlocks.blockerCoupleId} = ${couple} or ${coupleBlocks.blockedCoupleId} = ${couple})`;
}

/**
 * SQL: the couples the viewer's couple blocked or is blocked by, each once (a block made both ways is two
 * rows): a set to test `in`, read from the block table's two indexes.
 */
export function blockedEitherWay(viewerCouple: CoupleRef): SQL {
  return sql`(select ${coupleBlocks.blockedCoupleId} from ${coupleBlocks} where ${coupleBlocks.blockerCoupleId} = ${viewerCouple}
    union select ${coupleBlocks.blockerCoupleId} from ${coupleBlocks} where ${coupleBlocks.blockedCoupleId} = ${viewerCouple})`;
}

/**
 * The couple of a user as a scalar subquery (null when they have none, which blocks nothing).
 * Aliased, so it never binds to a `couples` of the outer query.
 */
export function coupleOfUser(userId: string | SQL): SQL {
  return sql`(select vc.id from couples vc where vc.partner1_id = ${userId} or vc.partner2_id = ${userId} limit 1)`;
}

export async function isBlockedEitherWay(db: Db, coupleA: string, coupleB: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql`1` })
    .from(coupleBlocks)
    .where(
      or(
        and(eq(coupleBlocks.blockerCoupleId, coupleA), eq(coupleBlocks.blockedCoupleId, coupleB)),
        and(eq(coupleBlocks.blockerCoupleId, coupleB), eq(coupleBlocks.blockedCoupleId, coupleA)),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export const BLOCK_MESSAGES = {
  self: "You cannot block your own couple.",
  notFound: "Couple not found.",
  blocked: "You cannot interact with this couple.",
} as const;

export const blockedError = () => new AppError("BLOCKED", BLOCK_MESSAGES.blocked);

export type BlockActor = { userId: string; coupleId: string };
