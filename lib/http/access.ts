import "server-only";
import type { Db } from "@/db/client";
import { eq } from "drizzle-orm";
import { users } from "@/db/schema";
import { userAccount, type Account } from "@/lib/auth/users";
import { AppError } from "@/lib/errors";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import { mayGrantRoles, mayModerate } from "@/lib/membership/roles";

export const MODERATORS_ONLY = "Only moderators can do this.";
export const ADMINS_ONLY = "Only admins can do this.";

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
 * couple, else null), or a role that may moderate or grant roles.
 */
export async function assertAccess(db: Db, access: Access, userId: string): Promise<ActingCouple | null> {
  if (access === "complete-profile") return completeAccountCouple(await userAccount(db, userId));
  if (access === "moderator") {
    const [row] = await db.select({ role: users.role }).from(users).where(eq(users.id, userId)).limit(1);
    if (!row || !mayModerate(row.role)) throw new AppError("FORBIDDEN", MODERATORS_ONLY);
  }
  if (access === "admin") {
    const [row] = await db.select({ role: users.role }).from(users).where(eq(users.id, userId)).limit(1);
    if (!row || !mayGrantRoles(row.role)) throw new AppError("FORBIDDEN", ADMINS_ONLY);
  }
  return null;
}
