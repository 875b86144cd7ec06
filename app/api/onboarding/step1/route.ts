import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { readMultipart, step1FromForm } from "@/lib/onboarding/form";
import { completeStep1 } from "@/lib/onboarding/service";
import { renewSessionCookie } from "@/lib/auth/renew-session-cookie";
import { LIMITS } from "@/lib/rate-limit";

/** Onboarding step 1 (individual profile), multipart with the spec's field names. */
export const POST = route(
  { access: "signed-in", limits: [LIMITS.profileSavesPerUser], input: async (request) => step1FromForm(await readMultipart(request)) },
  async ({ db, caller, request, input: { fields, images }, clientAddress }) => {
    const data = await completeStep1(db, caller.userId, fields, images, { clientAddress });
    return renewSessionCookie(db, request, caller, NextResponse.json({ success: true, data }));
  },
);
