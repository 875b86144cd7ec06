import { NextResponse } from "next/server";
import { requestEmailChange } from "@/lib/auth/account-security";
import { changeEmailSchema } from "@/lib/auth/schemas";
import { jsonBody, route } from "@/lib/http/route";
import { deliverAfterResponse } from "@/lib/mail/outbox";

/** Sends a confirmation link to the new address and a notice to the old one; the address changes when the link is used. */
export const POST = route(
  { access: "signed-in", input: jsonBody(changeEmailSchema, { firstIssue: true }) },
  async ({ db, caller, input }) => {
    const { emailIds } = await requestEmailChange(db, caller.userId, input);
    deliverAfterResponse(db, emailIds);
    return NextResponse.json({ data: { pendingEmail: input.newEmail } });
  },
);
