import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, users } from "@/db/schema";
import { partnerOf } from "@/lib/membership/partner";
import { isFull, partner2, partner2Unproven } from "@/lib/invitations/send";
import type { CoupleOnDeletion } from "./rules";

/**
 * What the account pages of the settings show: the sign-in address, and whom the couple's profile
 * stays with (nobody but a partner who proved the address: deleteAccount releases an unproven one).
 */
export async function accountOverview(db: Db, userId: string): Promise<{ email: string; couple: CoupleOnDeletion }> {
  const [row] = await db
    .select({ email: users.email, partner1Id: couples.partner1Id, partner2Id: couples.partner2Id, partner2Unproven })
    .from(users)
    .leftJoin(couples, partnerOf(users.id))
    .leftJoin(partner2, eq(partner2.id, couples.partner2Id))
    .where(eq(users.id, userId));
  const couple = !row?.partner1Id ? "none" : isFull(row) ? "with-partner" : "alone";
  return { email: row?.email ?? "", couple };
}
