import { NextResponse } from "next/server";
import { changePassword } from "@/lib/auth/account-security";
import { changePasswordSchema } from "@/lib/auth/schemas";
import { jsonBody, route } from "@/lib/http/route";
import { deliverAfterResponse } from "@/lib/mail/outbox";

/** New password after the current one: every other session ends, this one stays. */
export const POST = route(
  { access: "signed-in", input: jsonBody(changePasswordSchema, { firstIssue: true }) },
  async ({ db, caller, input }) => {
    const { sessionsEnded, emailIds } = await changePassword(db, caller, input);
    deliverAfterResponse(db, emailIds);
    return NextResponse.json({ data: { sessionsEnded } });
  },
);
