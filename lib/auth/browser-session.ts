import "server-only";
import { getDb } from "@/db/client";
import { auth, signIn, signOut } from "./auth";
import { revokeSession } from "./sessions";

/** Ends the current browser session server-side and clears the cookie. */
export async function endBrowserSession(): Promise<void> {
  const session = await auth();
  if (session?.claims.sid) await revokeSession(await getDb(), session.claims.sid);
  await signOut({ redirect: false });
}

/**
 * Signs in on this browser (Auth.js credentials, no redirect) and revokes the session it
 * replaces, rather than leaving the earlier one live. A refused sign-in throws (SignInRefused)
 * and leaves the earlier session as it was.
 */
export async function signInReplacingSession(credentials: { email: string; password: string }): Promise<void> {
  const previous = await auth();
  await signIn("credentials", { ...credentials, redirect: false });
  if (previous?.claims.sid) await revokeSession(await getDb(), previous.claims.sid);
}
