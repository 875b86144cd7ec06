import "server-only";
import type { NextRequest, NextResponse } from "next/server";
import type { Db } from "@/db/client";
import type { Caller } from "@/lib/http/request-auth";
import { encodeSessionCookie, setSessionCookie } from "./guard-session";
import { decodeSessionCookie } from "./session-cookie";
import { sessionCookieName } from "./session-token";
import { accountFlags } from "./users";

/**
 * refreshSessionClaims (lib/auth/refresh-claims) for a REST call that changes a flag: when it
 * was made with the browser session cookie, `response` carries that cookie re-issued with the
 * account's current flags, so the next page the browser opens is guarded by them, and for the
 * caller's session (a password change gives the caller a new one). Bearer calls have no cookie
 * to renew.
 */
export async function renewSessionCookie(db: Db, request: NextRequest, caller: Caller, response: NextResponse): Promise<NextResponse> {
  if (caller.via !== "cookie") return response;
  const value = request.cookies.get(sessionCookieName())?.value;
  const claims = value ? await decodeSessionCookie(value) : null;
  const flags = await accountFlags(db, caller.userId);
  if (!claims || !flags) return response;
  return setSessionCookie(response, await encodeSessionCookie({ ...claims, ...flags, sid: caller.sessionId }));
}
