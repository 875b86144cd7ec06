import "server-only";
import { auth, unstable_update } from "./auth";

/**
 * Rewrites the browser session cookie with the account's current flags (email verified,
 * profile complete, partner B). The route guard reads only the cookie, so every server action
 * that changes one of those flags calls this before it navigates. Outside a browser session
 * (API clients) there is no cookie and nothing to do.
 */
export async function refreshSessionClaims(): Promise<void> {
  const session = await auth();
  if (!session?.claims.sid) return;
  await unstable_update({});
}
