import { NextResponse } from "next/server";
import { changePassword } from "@/lib/auth/account-security";
import { deviceCookieOn } from "@/lib/auth/device-cookie";
import { renewSessionCookie } from "@/lib/auth/renew-session-cookie";
import { changePasswordSchema } from "@/lib/auth/schemas";
import { jsonBody, route } from "@/lib/http/route";
import { ENDED_WITH_OLD_PASSWORD } from "@/lib/registry/old-password";
import { deliverAfterResponse } from "@/lib/mail/outbox";

/**
 * New password after the current one: every other session ends, and this one goes on under a
 * fresh session: a browser's new cookie, or an API client's new tokens in `data.session`. The
 * browser stays trusted with a device cookie for the new password (every other one's trust ends).
 */
export const POST = route(
  { access: "signed-in", input: jsonBody(changePasswordSchema, { firstIssue: true }) },
  async ({ db, caller, input, request }) => {
    const { sessionsEnded, session, device, emailIds } = await changePassword(db, caller, input, ENDED_WITH_OLD_PASSWORD);
    deliverAfterResponse(db, emailIds);
    if (session.tokens)
      return NextResponse.json({ data: { sessionsEnded, session: session.tokens } }, { headers: { "Cache-Control": "no-store" } });
    const response = await renewSessionCookie(
      db,
      request,
      { ...caller, sessionId: session.id },
      NextResponse.json({ data: { sessionsEnded } }),
    );
    return caller.via === "cookie" ? deviceCookieOn(response, device) : response;
  },
);
