import { and, eq, inArray, isNull, not, or, sql, type Column, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { couples, users } from "@/db/schema";

/**
 * Which couple a person is a partner of, as SQL, and who a couple's partners are: facts about
 * couples that the floors below the couple's own area (auth, images, locations) and the features
 * that tell both partners (forum, notifications, plans) need, so they live below them all.
 */

/** The couple rows the user (an id, a user id column in a join, or a placeholder) is a partner of, as A or B. */
export function partnerOf(user: string | Column | SQL): SQL {
  return or(eq(couples.partner1Id, user), eq(couples.partner2Id, user))!;
}

/**
 * Inside the caller's transaction: locks the user's couple on its own, before the caller reads it
 * joined with its partners. A row lock waited for re-reads only the locked row, not what a join
 * found, so a partner 2 who joined meanwhile would read as one who proved the address (partner2Unproven false).
 */
export async function lockCoupleOf(tx: Db, userId: string): Promise<void> {
  await tx.select({ id: couples.id }).from(couples).where(partnerOf(userId)).for("update");
}

/**
 * Inside the caller's transaction: key-shares a couple's partners' rows, in id order, before the
 * caller locks the couple (what a notice to a partner, a foreign key to them, takes anyway). A
 * partner's row, then the couple, is the order a profile save, an account's deletion and a join
 * take them, so a write that tells a partner never holds the couple while it waits on them. Not a
 * partner 2 who never proved the address (`unprovenPartner`): an invitation's send, partner A's
 * 'Cancel' and a deletion release them after the couple (lib/invitations/send.ts), so held
 * before it, a write would wait on the couple holding the row that release takes next.
 */
export async function holdPartnersOf(tx: Db, coupleId: string): Promise<void> {
  await holdPartnersWhere(tx, eq(couples.id, coupleId));
}

/** SQL on `users`: the partners holdPartnersWhere holds of every couple `which` (SQL on `couples`) selects. */
export const partnersWhere = (which: SQL): SQL =>
  and(
    sql`${users.id} in (select unnest(array[${couples.partner1Id}, ${couples.partner2Id}]) from ${couples} where ${which})`,
    not(unprovenPartner(users)),
  )!;

/** holdPartnersOf for every couple `which` (SQL on `couples`) selects, all in one id order: both couples of a conversation. */
export async function holdPartnersWhere(tx: Db, which: SQL): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(partnersWhere(which)).orderBy(users.id).for("key share");
}

/** Key-shares the partners of two couples, in one id order, before either couple's row or their pair's lock (holdPartnersWhere). */
export const holdPartnersOfPair = (tx: Db, one: string, other: string): Promise<void> =>
  holdPartnersWhere(tx, inArray(couples.id, [one, other]));

/**
 * SQL: an account made through an invitation's shareable link that has not proved its address yet
 * (partner B's e-mailed link verifies at once, so such an account is 'partner_invitation' and
 * never verified). It cannot sign in (lib/auth/credentials.ts), and whoever held the link chose
 * its password, so verifying it also sets the password the mailbox's owner chooses
 * (lib/auth/email-verification.ts verifyEmail). It is a partner of the couple all the same, but
 * it does not fill partner A's couple (lib/invitations/send.ts partner2Unproven) and no decision
 * waits on it (decidingPartner2Id). Takes `users` or an alias of it.
 */
export const unprovenPartner = (account: { registrationType: Column; emailVerifiedAt: Column }) =>
  and(eq(account.registrationType, "partner_invitation"), isNull(account.emailVerifiedAt))!;

/** Partner 2's account, left-joined on `eq(secondPartner.id, couples.partner2Id)` for decidingPartner2Id. */
export const secondPartner = alias(users, "second_partner");

/**
 * SQL, with `secondPartner` left-joined: the couple's partner 2 as a decision that waits on every
 * partner counts them ('Both of us approve new connections', a plan's 'Confirmed', 'Not for us'
 * from both), null while they are an unprovenPartner: such an account cannot sign in to answer,
 * so the decision would wait for ever. From the moment they prove the address they count.
 * Everything else (names on the couple, notifications, blocks, sanctions) counts them as a partner.
 */
export const decidingPartner2Id = sql<string | null>`case when ${unprovenPartner(secondPartner)} then null else ${couples.partner2Id} end`;

async function partnersRead(db: Db, coupleIds: readonly string[], deciding: boolean): Promise<Map<string, string[]>> {
  if (coupleIds.length === 0) return new Map();
  const rows = await db
    .select({ id: couples.id, p1: couples.partner1Id, p2: deciding ? decidingPartner2Id : couples.partner2Id })
    .from(couples)
    .leftJoin(secondPartner, eq(secondPartner.id, couples.partner2Id))
    .where(inArray(couples.id, [...coupleIds]));
  return new Map(rows.map((row) => [row.id, row.p2 ? [row.p1, row.p2] : [row.p1]]));
}

/** The partners of each couple (partner A alone until B joins), the whole list in one read. */
export const partnersByCouple = (db: Db, coupleIds: readonly string[]): Promise<Map<string, string[]>> =>
  partnersRead(db, coupleIds, false);

/** The partners of `coupleIds`, couple by couple, from partnersByCouple's answer. */
export const partnersIn = (byCouple: Map<string, string[]>, coupleIds: readonly string[]): string[] =>
  coupleIds.flatMap((id) => byCouple.get(id) ?? []);

/** One couple's partners (none when there is no such couple). */
export const couplePartners = async (db: Db, coupleId: string): Promise<string[]> =>
  partnersIn(await partnersByCouple(db, [coupleId]), [coupleId]);

/** One couple's partners whose answers a decision waits on (decidingPartner2Id), partner A first; none when there is no such couple. */
export const decidingPartners = async (db: Db, coupleId: string): Promise<string[]> =>
  partnersIn(await partnersRead(db, [coupleId], true), [coupleId]);
