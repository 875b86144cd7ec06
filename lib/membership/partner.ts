import { eq, inArray, or, type Column, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples } from "@/db/schema";

/**
 * Which couple a person is a partner of, as SQL, and who a couple's partners are: facts about
 * couples that the floors below the couple's own area (auth, images, locations) and the features
 * that tell both partners (forum, notifications, plans) need, so they live below them all.
 */

/** The couple rows the user (an id, a user id column in a join, or a placeholder) is a partner of, as A or B. */
export function partnerOf(user: string | Column | SQL): SQL {
  return or(eq(couples.partner1Id, user), eq(couples.partner2Id, user))!;
}

/** The partners of each couple (partner A alone until B joins), the whole list in one read. */
export async function partnersByCouple(db: Db, coupleIds: readonly string[]): Promise<Map<string, string[]>> {
  if (coupleIds.length === 0) return new Map();
  const rows = await db
    .select({ id: couples.id, p1: couples.partner1Id, p2: couples.partner2Id })
    .from(couples)
    .where(inArray(couples.id, [...coupleIds]));
  return new Map(rows.map((row) => [row.id, row.p2 ? [row.p1, row.p2] : [row.p1]]));
}

/** The partners of `coupleIds`, couple by couple, from partnersByCouple's answer. */
export const partnersIn = (byCouple: Map<string, string[]>, coupleIds: readonly string[]): string[] =>
  coupleIds.flatMap((id) => byCouple.get(id) ?? []);

/** One couple's partners (none when there is no such couple). */
export const couplePartners = async (db: Db, coupleId: string): Promise<string[]> =>
  partnersIn(await partnersByCouple(db, [coupleId]), [coupleId]);
