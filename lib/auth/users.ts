import "server-only";
import { eq, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { preparedPer } from "@/db/prepared";
import { couples, sessions, users } from "@/db/schema";
import { partnerOf } from "@/lib/couples/partner";
import { flagSourceColumns, selfColumns } from "@/lib/users/projections";
import { normalizeEmail } from "./rules";
import { liveSessionWhere, type SessionRead } from "./sessions";

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

/**
 * What the flags are derived from and nothing more, of a person and their couple (tables or
 * aliases of them, as a statement joins them): every complete-profile call reads these.
 */
export const flagColumns = <
  P extends Parameters<typeof flagSourceColumns>[0],
  C extends { coupleName: AnyPgColumn<{ data: string }>; partner2Id: AnyPgColumn<{ data: string }> },
>(
  person: P,
  couple: C,
) => ({
  ...flagSourceColumns(person),
  coupleName: couple.coupleName,
  partner2Id: couple.partner2Id,
});

export function flagsOf(
  row: { emailVerifiedAt: Date | null; partner2Id: string | null } & Parameters<typeof isProfileComplete>[0],
  userId: string,
): AccountFlags {
  return {
    emailVerified: row.emailVerifiedAt !== null,
    profileComplete: isProfileComplete(row),
    isPartnerB: row.partner2Id === userId,
  };
}

// Prepared: every complete-profile API call and every guarded page asks.
const flagsQuery = preparedPer((db) =>
  db
    .select(flagColumns(users, couples))
    .from(users)
    .leftJoin(couples, partnerOf(users.id))
    .where(eq(users.id, sql.placeholder("userId")))
    .prepare("account_flags"),
);
const liveFlagsQuery = preparedPer((db) =>
  db
    .select(flagColumns(users, couples))
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(couples, partnerOf(users.id))
    // By the session's primary key alone (a user filter here can make the planner walk all the user's sessions).
    .where(liveSessionWhere())
    .prepare("live_session_account"),
);

export async function accountFlags(db: Db, userId: string): Promise<AccountFlags | null> {
  const [row] = await flagsQuery(db).execute({ userId });
  return row ? flagsOf(row, userId) : null;
}

/**
 * A live session's user and their flags, in one round trip (the session's primary key, the
 * user's, and the couples' partner indexes): null when the session was revoked, expired, never
 * existed or belongs to someone else than `userId` (the cookie's claim).
 */
export async function liveSessionAccount(db: Db, sessionId: string, userId: string): Promise<AccountFlags | null> {
  const found = await sessionWithFlags(db, sessionId, noInput);
  return found?.userId === userId ? (found.flags ?? null) : null;
}

const noInput = async () => null;

/** A live session's user with their flags: the session read of `complete-profile` calls. */
export const sessionWithFlags: SessionRead<undefined> = async (db, sessionId) => {
  const [row] = await liveFlagsQuery(db).execute({ sid: sessionId, now: new Date().toISOString() });
  return row ? { userId: row.id, value: undefined, flags: flagsOf(row, row.id) } : null;
};

/** Profile setup is needed while there is no couple, no basic profile or no couple name. */
export function isProfileComplete(row: {
  firstName: string | null;
  lastName: string | null;
  occupation: string | null;
  coupleName: string | null;
}): boolean {
  return Boolean(row.firstName && row.lastName && row.occupation && row.coupleName);
}
