import { NextResponse } from "next/server";
import { listSessions, revokeOtherSessions } from "@/lib/auth/account-security";
import { route } from "@/lib/http/route";

/**
 * The caller's live sessions: device (from the User-Agent), started, last seen, which is this one.
 * No place: without an offline geo-IP database none is guessed.
 */
export const GET = route({ access: "signed-in" }, async ({ db, caller }) => {
  return NextResponse.json({ data: await listSessions(db, caller) }, { headers: { "Cache-Control": "no-store" } });
});

/** 'Sign out everywhere else': every other session of the caller ends. */
export const DELETE = route({ access: "signed-in" }, async ({ db, caller }) => {
  return NextResponse.json({ data: { sessionsEnded: await revokeOtherSessions(db, caller.userId, caller.sessionId) } });
});
