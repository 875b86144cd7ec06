import { NextResponse } from "next/server";
import { accountForResend, resendVerification } from "@/lib/auth/email-verification";
import { resendVerificationSchema } from "@/lib/auth/schemas";
import { jsonBody, route } from "@/lib/http/route";
import { deliverAfterResponse } from "@/lib/mail/outbox";

/** No body for a signed-in caller; a signed-out one (just registered) names the e-mail. */
export const POST = route(
  { access: "optional", input: jsonBody(resendVerificationSchema) },
  async ({ db, caller, input, clientAddress }) => {
    const userId = caller?.userId ?? (input.email ? await accountForResend(db, input.email, { clientAddress }) : null);
    if (!userId) return NextResponse.json({ error: { code: "UNAUTHENTICATED", message: "Not authenticated" } }, { status: 401 });
    const { emailIds, attemptsRemaining } = await resendVerification(db, userId);
    deliverAfterResponse(db, emailIds);
    return NextResponse.json({ success: true, message: "Verification email sent! Please check your inbox.", attemptsRemaining });
  },
);
