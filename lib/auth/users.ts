import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { couples, users } from "@/db/schema";
import { partnerOf } from "@/lib/couples/partner";
import { selfColumns } from "@/lib/users/projections";
import { normalizeEmail } from "./rules";

/** The flags the route guard needs, derived from the rows (spec section 4, derived flags). */
export type AccountFlags = {
  emailVerified: boolean;
  profileComplete: boolean;
  isPartnerB: boolean;
};

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db
    // No caller needs the password hash (credentials.ts reads it for the check), so it is not read here.
    .select(selfColumns(users))
    .from(users)
    .where(eq(users.email, normalizeEmail(email)));
  return row ?? null;
}

export async function accountFlags(db: Db, userId: string): Promise<AccountFlags | null> {
  const [row] = await db
    .select({ ...selfColumns(users), coupleName: couples.coupleName, partner2Id: couples.partner2Id })
    .from(users)
    .leftJoin(couples, partnerOf(users.id))
    .where(eq(users.id, userId));
  if (!row) return null;
  return {
    emailVerified: row.emailVerifiedAt !== null,
    profileComplete: isProfileComplete(row),
    isPartnerB: row.partner2Id === userId,
  };
}

/** Profile setup is needed while there is no couple, no basic profile or no couple name. */
export function isProfileComplete(row: {
  firstName: string | null;
  lastName: string | null;
  occupation: string | null;
  coupleName: string | null;
}): boolean {
  return Boolean(row.firstName && row.lastName && row.occupation && row.coupleName);
}
