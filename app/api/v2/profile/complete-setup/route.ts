import { NextResponse } from "next/server";
import { jsonBody, route } from "@/lib/http/route";
import { profileCompletionSchema } from "@/lib/profile/schemas";
import { completeProfileSetup } from "@/lib/profile/service";
import { renewSessionCookie } from "@/lib/auth/renew-session-cookie";
import { LIMITS } from "@/lib/rate-limit";

/** Profile completion in one call: {userData, coupleData} (spec section 3). */
export const POST = route(
  { access: "signed-in", limits: [LIMITS.profileSavesPerUser], input: jsonBody(profileCompletionSchema, { firstIssue: true }) },
  async ({ db, caller, request, input, clientAddress }) => {
    const data = await completeProfileSetup(db, caller.userId, input, { clientAddress });
    return renewSessionCookie(db, request, caller, NextResponse.json({ success: true, data }));
  },
);
