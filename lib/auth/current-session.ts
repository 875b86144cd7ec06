import "server-only";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/db/client";
import { AppError } from "@/lib/errors";
import { clientAddress } from "@/lib/http/client-address";
import { auth } from "./auth";
import { readSessionCookie } from "./session-cookie";
import { sessionCookieName } from "./session-token";
import { touchSession } from "./sessions";
import type { ActingCouple } from "@/lib/membership/acting-couple";
import type { CoupleNotices } from "@/lib/safety/notices";
import { liveSessionAccount, type AccountFlags } from "./users";

/** A guarded page's caller: their id and session's, their account's flags, the couple they act for (null: none yet) and its notices. */
export type PageCaller = { userId: string; sessionId: string; couple: ActingCouple | null; notices: CoupleNotices } & AccountFlags;

/**
 * For guarded pages: the live session, the account's flags, acting couple and its notices read from the rows in one query,
 * since the cookie's copy can be stale. Redirects to sign in when there is no live session (a
 * session row goes with its user). Reads the cookie itself rather than through
 * auth(): a server component cannot set the cookie Auth.js re-encrypts on every read. Cached per
 * request: a layout and its page both ask, and the session and flags are read once.
 */
export const requireSignedIn = cache(async (): Promise<PageCaller> => {
  const session = await readSessionCookie((await cookies()).get(sessionCookieName())?.value);
  if (!session) redirect("/login");
  const db = await getDb();
  // The touch goes beside the read (it only ever extends a live session): no render waits for the write.
  const [account] = await Promise.all([liveSessionAccount(db, session.sessionId, session.userId), touchSession(db, session.sessionId)]);
  if (!account) redirect("/login");
  if (!account.flags.emailVerified) redirect("/verify-email");
  return { userId: session.userId, sessionId: session.sessionId, ...account.flags, couple: account.couple, notices: account.notices };
});

/**
 * For pages under the signed-in layout, which need a complete profile: the layout redirects to
 * onboarding, but a page's own work starts beside its layout's, so a page that reads the couple
 * must not run for someone who has none. The same check, cached with requireSignedIn; the page
 * gets the acting couple with it.
 */
export const requireCompleteProfile = cache(async (): Promise<PageCaller & { couple: ActingCouple }> => {
  const account = await requireSignedIn();
  const { couple } = account;
  if (!account.profileComplete || !couple) redirect("/onboarding");
  return { ...account, couple };
});

/** For server actions: the signed-in caller's id, else UNAUTHENTICATED (which actionFailure turns into the form's message). */
export async function requireActionUserId(): Promise<string> {
  const session = await auth();
  if (!session?.claims.sub) throw new AppError("UNAUTHENTICATED", "Not authenticated");
  return session.claims.sub;
}

/** For public pages that adapt to a signed-in visitor (the join pages): who is asking, if anyone, and from where. */
export async function currentVisitor(): Promise<{ userId: string | null; clientAddress: string }> {
  const [session, requestHeaders] = await Promise.all([auth(), headers()]);
  return { userId: session?.claims.sub ?? null, clientAddress: clientAddress(requestHeaders) };
}
