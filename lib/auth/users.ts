import "server-only";
import { eq, or, sql, type SQL } from "drizzle-orm";
import { alias, type AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { preparedPer } from "@/db/prepared";
import { couples, sessions, users } from "@/db/schema";
import { actingCoupleColumns, actingCoupleOf, type ActingCouple, type ActingRow } from "@/lib/membership/acting-couple";
import type { Role } from "@/lib/membership/roles";
import { partnerOf } from "@/lib/membership/partner";
import { noticesOf, noticesSql, type CoupleNotices } from "@/lib/safety/notices";
import { flagSourceColumns, selfColumns } from "@/lib/users/projections";
import { normalizeEmail } from "./rules";
import { liveSessionWhere, type SessionFound } from "./sessions";

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

/**
 * What every complete-profile call reads of a person with their session, in the same statement:
 * the flags' sources and the acting couple (tables or aliases of them, as a statement joins them).
 */
export const accountColumns = <
  P extends Parameters<typeof flagColumns>[0] & { role: AnyPgColumn<{ data: Role }> },
  C extends Parameters<typeof flagColumns>[1] & Parameters<typeof actingCoupleColumns>[0],
>(
  person: P,
  couple: C,
) => ({ ...flagColumns(person, couple), ...actingCoupleColumns(couple), role: person.role });

/** A person's account as a session read finds it: the route guard's flags and the couple they act for (null: none yet). */
export type Account = { flags: AccountFlags; couple: ActingCouple | null };

export const accountOf = (row: Parameters<typeof flagsOf>[0] & ActingRow): Account => ({
  flags: flagsOf(row, row.id),
  couple: actingCoupleOf(row),
});

/**
 * A read by session (lib/auth/sessions.ts `SessionRead`: the forum's global list, the inbox, a
 * thread) carries its reader's account on each of its rows (a thread's one row):
 * `readerAccountColumns`, from two aliases joined on the reader with `readerJoins`; a read that
 * is not by session joins them on false, which costs nothing.
 */
const readerUser = alias(users, "account_user");
const readerCouple = alias(couples, "account_couple");
export const readerAccountColumns = () => accountColumns(readerUser, readerCouple);
export const readerJoins = (readerId: SQL | null) =>
  [
    [readerUser, readerId ? eq(readerUser.id, readerId) : sql`false`],
    [readerCouple, or(eq(readerCouple.partner1Id, readerUser.id), eq(readerCouple.partner2Id, readerUser.id))],
  ] as const;

/** The reader of a row read by session, from its `account` (Drizzle types a left-joined alias's nested columns as never). */
export function readerOf(account: unknown): { userId: string; account: Account } | null {
  const row = account as (Omit<Parameters<typeof accountOf>[0], "id"> & { id: string | null }) | null | undefined;
  return row?.id ? { userId: row.id, account: accountOf({ ...row, id: row.id }) } : null;
}

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
const accountQuery = preparedPer((db) =>
  db
    .select(accountColumns(users, couples))
    .from(users)
    .leftJoin(couples, partnerOf(users.id))
    .where(eq(users.id, sql.placeholder("userId")))
    .prepare("account_flags"),
);
/** A live session's account, with `extra` columns beside it. */
const liveAccountSelect = <E extends Record<string, SQL>>(db: Db, extra: E) =>
  db
    .select({ ...accountColumns(users, couples), ...extra })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(couples, partnerOf(users.id))
    // By the session's primary key alone (a user filter here can make the planner walk all the user's sessions).
    .where(liveSessionWhere());
const liveAccountQuery = preparedPer((db) => liveAccountSelect(db, {}).prepare("live_session_account"));
/** A signed-in page's session read: with its couple's notices (lib/safety/notices.ts), in the same statement. */
const livePageQuery = preparedPer((db) =>
  liveAccountSelect(db, { notices: noticesSql(db, sql`${couples.id}`) }).prepare("live_session_page"),
);

/** A person's account (flags and acting couple) in one query; null when there is no such person. */
export async function userAccount(db: Db, userId: string): Promise<Account | null> {
  const [row] = await accountQuery(db).execute({ userId });
  return row ? accountOf(row) : null;
}

export async function accountFlags(db: Db, userId: string): Promise<AccountFlags | null> {
  return (await userAccount(db, userId))?.flags ?? null;
}

/**
 * A live session's account (flags and acting couple) with its couple's notices, for a signed-in
 * page, in one round trip (the session's primary key, the user's, and the couples' partner
 * indexes): null when the session was revoked, expired, never existed or belongs to someone else
 * than `userId` (the cookie's claim).
 */
export async function liveSessionAccount(
  db: Db,
  sessionId: string,
  userId: string,
): Promise<(Account & { notices: CoupleNotices }) | null> {
  const [row] = await livePageQuery(db).execute({ sid: sessionId, now: new Date().toISOString() });
  return row?.id === userId ? { ...accountOf(row), notices: noticesOf(row.notices) } : null;
}

/** A live session's user with their account (flags and acting couple): the session read of `complete-profile` calls. */
export const sessionWithAccount = async (db: Db, sessionId: string): Promise<SessionFound<undefined> | null> => {
  const [row] = await liveAccountQuery(db).execute({ sid: sessionId, now: new Date().toISOString() });
  return row ? { userId: row.id, value: undefined, account: accountOf(row) } : null;
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
