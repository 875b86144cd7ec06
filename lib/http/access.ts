import "server-only";
import type { Db } from "@/db/client";
import { eq } from "drizzle-orm";
import { users } from "@/db/schema";
import { accountFlags, type AccountFlags } from "@/lib/auth/users";
import { AppError } from "@/lib/errors";

/**
 * Who may call a route handler or a server action, declared by each of them:
 * - `public`: anyone; no credential is read at all (a stray header or cookie can never refuse the call).
 * - `optional`: anyone; a signed-in caller is recognised (route handlers: with the CSRF rule of
 *   mutating cookie calls).
 * - `signed-in`: a live session, else UNAUTHENTICATED.
 * - `complete-profile`: signed in with a complete profile (names, occupation, couple), else
 *   PROFILE_INCOMPLETE (409).
 * - `admin`: signed in with the admin role (`npm run admin:grant -- EMAIL`), else NOT_FOUND: to
 *   everyone else the moderation tools do not exist.
 */
export type Access = "public" | "optional" | "signed-in" | "complete-profile" | "admin";

/** The caller a handler gets for its access: never null where a session is required. */
export type CallerFor<A extends Access, C> = A extends "public" ? null : A extends "optional" ? C | null : C;

/** The `complete-profile` check, on the rows (the session's copy of the flag can be stale). */
export async function assertProfileComplete(db: Db, userId: string): Promise<void> {
  assertCompleteFlags(await accountFlags(db, userId));
}

/** The `complete-profile` check on flags already read (with the session, in one round trip). */
export function assertCompleteFlags(flags: AccountFlags | null): void {
  if (!flags?.profileComplete) throw new AppError("PROFILE_INCOMPLETE", "User profile incomplete - continue with onboarding");
}

/** The checks on the rows once a live session is known: a complete profile, or the admin role. */
export async function assertAccess(db: Db, access: Access, userId: string): Promise<void> {
  if (access === "complete-profile") await assertProfileComplete(db, userId);
  if (access === "admin") {
    const [row] = await db.select({ role: users.role }).from(users).where(eq(users.id, userId)).limit(1);
    if (row?.role !== "admin") throw new AppError("NOT_FOUND", "Not found");
  }
}
