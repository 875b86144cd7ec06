import { NextResponse } from "next/server";
import { changePassword } from "@/lib/auth/account-security";
import { renewSessionCookie } from "@/lib/auth/renew-session-cookie";
import { changePasswordSchema } from "@/lib/auth/schemas";
import { jsonBody, route } from "@/lib/http/route";
import { deliverAfterResponse } from "@/lib/mail/outbox";

/**
 * New password after the current one: every other session ends, and this one goes on under a
 * fresh session: a browser's new cookie, or an API client's new tokens in `data.session`.
 */
export const POST = route(
  { access: "signed-in", input: jsonBody(changePasswordSchema, { firstIssue: true }) },
  async ({ db, caller, input, request }) => {
    const { sessionsEnded, session, emailIds } = await changePassword(db, caller, input);
    deliverAfterResponse(db, emailIds);
    if (session.tokens)
      return NextResponse.json({ data: { sessionsEnded, session: session.tokens } }, { headers: { "Cache-Control": "no-store" } });
    return renewSessionCookie(db, request, { ...caller, sessionId: session.id }, NextResponse.json({ data: { sessionsEnded } }));
  },
);
