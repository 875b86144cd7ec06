import "server-only";
import type { Db } from "@/db/client";
import { eq } from "drizzle-orm";
import { couples, users } from "@/db/schema";
import { userAccount, type Account } from "@/lib/auth/users";
import { AppError } from "@/lib/errors";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { partnerOf } from "@/lib/membership/partner";
import { ADMINS_ONLY, MODERATORS_ONLY, mayGrantRoles, mayModerate } from "@/lib/membership/roles";
import type { Moderator } from "@/lib/safety/moderators";

/**
 * Who may call a route handler or a server action, declared by each of them:
 * - `public`: anyone; no credential is read at all (a stray header or cookie can never refuse the call).
 * - `optional`: anyone; a signed-in caller is recognised (route handlers: with the CSRF rule of
 *   mutating cookie calls).
 * - `signed-in`: a live session, else UNAUTHENTICATED.
 * - `complete-profile`: signed in with a complete profile (names, occupation, couple), else
 *   PROFILE_INCOMPLETE (409, the spec's answer to an account without a finished couple). This is
 *   how a handler says it needs a couple: it gets the acting couple, read with the session.
 * - `moderator`: signed in with the moderator or admin role (`npm run moderator:grant -- EMAIL`,
 *   `npm run admin:grant -- EMAIL`), else FORBIDDEN (403, the usual error shape).
 * - `admin`: signed in with the admin role (granting roles), else FORBIDDEN.
 */
export type Access = "public" | "optional" | "signed-in" | "complete-profile" | "moderator" | "admin";

/** The caller a handler gets for its access: never null where a session is required. */
export type CallerFor<A extends Access, C> = A extends "public" ? null : A extends "optional" ? C | null : C;

/** The acting couple a handler gets for its access: only `complete-profile` handlers have one, and always. */
export type CoupleFor<A extends Access> = A extends "complete-profile" ? ActingCouple : null;

/** The moderator a handler gets for its access (with their own couple, which they never act on): `moderator` and `admin` ones. */
export type ModeratorFor<A extends Access> = A extends "moderator" | "admin" ? Moderator : null;

/** What the checks on the rows hand a handler besides its caller. */
export type Granted = { couple: ActingCouple | null; moderator: Moderator | null };
export const NOTHING_GRANTED: Granted = { couple: null, moderator: null };

/**
 * The `complete-profile` check on an account already read (with the session, in one round trip,
 * or on the rows: the session's copy of the flag can be stale): its acting couple, else
 * PROFILE_INCOMPLETE. Every handler that needs a couple gets this one answer without one.
 */
export function completeAccountCouple(account: Account | null): ActingCouple {
  if (!account?.flags.profileComplete || !account.couple) {
    throw new AppError("PROFILE_INCOMPLETE", "User profile incomplete - continue with onboarding");
  }
  return account.couple;
}

/**
 * The checks on the rows once a live session is known: a complete profile (answering its acting
 * couple), or a role that may moderate or grant roles (answering the moderator, their role and
 * their own couple read in one statement).
 */
export async function assertAccess(db: Db, access: Access, userId: string): Promise<Granted> {
  if (access === "complete-profile") return { couple: completeAccountCouple(await userAccount(db, userId)), moderator: null };
  if (access !== "moderator" && access !== "admin") return NOTHING_GRANTED;
  const [row] = await db
    .select({ role: users.role, coupleId: couples.id })
    .from(users)
    .leftJoin(couples, partnerOf(users.id))
    .where(eq(users.id, userId))
    .limit(1);
  const [allowed, refusal] = access === "moderator" ? [mayModerate, MODERATORS_ONLY] : [mayGrantRoles, ADMINS_ONLY];
  if (!row || !allowed(row.role)) throw new AppError("FORBIDDEN", refusal);
  return { couple: null, moderator: { userId, coupleId: row.coupleId } };
}
