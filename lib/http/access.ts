import "server-only";
import type { Db } from "@/db/client";
import { accountFlags } from "@/lib/auth/users";
import { AppError } from "@/lib/errors";

/**
 * Who may call a route handler or a server action, declared by each of them:
 * - `public`: anyone; no credential is read at all (a stray header or cookie can never refuse the call).
 * - `optional`: anyone; a signed-in caller is recognised (route handlers: with the CSRF rule of
 *   mutating cookie calls).
 * - `signed-in`: a live session, else UNAUTHENTICATED.
 * - `complete-profile`: signed in with a complete profile (names, occupation, couple), else
 *   PROFILE_INCOMPLETE (409).
 * (`admin` joins here when there is one.)
 */
export type Access = "public" | "optional" | "signed-in" | "complete-profile";

/** The caller a handler gets for its access: never null where a session is required. */
export type CallerFor<A extends Access, C> = A extends "public" ? null : A extends "optional" ? C | null : C;

/** The `complete-profile` check, on the rows (the session's copy of the flag can be stale). */
export async function assertProfileComplete(db: Db, userId: string): Promise<void> {
  if (!(await accountFlags(db, userId))?.profileComplete) {
    throw new AppError("PROFILE_INCOMPLETE", "User profile incomplete - continue with onboarding");
  }
}
