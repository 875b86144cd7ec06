import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, users } from "@/db/schema";
import { partnerOf } from "@/lib/membership/partner";

/** What the account pages of the settings show: the sign-in address, and whether a partner would stay. */
export async function accountOverview(db: Db, userId: string): Promise<{ email: string; hasPartner: boolean }> {
  const [row] = await db
    .select({ email: users.email, partner1Id: couples.partner1Id, partner2Id: couples.partner2Id })
    .from(users)
    .leftJoin(couples, partnerOf(users.id))
    .where(eq(users.id, userId));
  return { email: row?.email ?? "", hasPartner: Boolean(row?.partner1Id && row.partner2Id) };
}
