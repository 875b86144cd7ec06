import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, users } from "@/db/schema";
import { partnerOf } from "@/lib/membership/partner";
import type { CoupleOnDeletion } from "./rules";

/** What the account pages of the settings show: the sign-in address, and whom the couple's profile stays with. */
export async function accountOverview(db: Db, userId: string): Promise<{ email: string; couple: CoupleOnDeletion }> {
  const [row] = await db
    .select({ email: users.email, partner1Id: couples.partner1Id, partner2Id: couples.partner2Id })
    .from(users)
    .leftJoin(couples, partnerOf(users.id))
    .where(eq(users.id, userId));
  const couple = !row?.partner1Id ? "none" : row.partner2Id ? "with-partner" : "alone";
  return { email: row?.email ?? "", couple };
}
