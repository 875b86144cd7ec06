import { NextResponse } from "next/server";
import { z } from "zod";
import { accountForResend, resendVerification } from "@/lib/auth/email-verification";
import { emailSchema } from "@/lib/auth/rules";
import { clientAddress } from "@/lib/http/client-address";
import { parseWith, readJson } from "@/lib/http/errors";
import { apiRoute } from "@/lib/http/route";
import { optionalCaller } from "@/lib/http/request-auth";
import { deliverAfterResponse } from "@/lib/mail/outbox";

const resendSchema = z.object({ email: emailSchema.optional() });

/** No body for a signed-in caller; a signed-out one (just registered) names the e-mail. */
export const POST = apiRoute(async (request, db) => {
  const caller = await optionalCaller(db, request);
  const { email } = parseWith(resendSchema, await readJson(request));
  const userId = caller?.userId ?? (email ? await accountForResend(db, email, { clientAddress: clientAddress(request.headers) }) : null);
  if (!userId) return NextResponse.json({ error: { code: "UNAUTHENTICATED", message: "Not authenticated" } }, { status: 401 });
  const { emailIds, attemptsRemaining } = await resendVerification(db, userId);
  deliverAfterResponse(db, emailIds);
  return NextResponse.json({ success: true, message: "Verification email sent! Please check your inbox.", attemptsRemaining });
});
