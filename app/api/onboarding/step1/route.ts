import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/http/route";
import { requireCaller } from "@/lib/http/request-auth";
import { readMultipart, step1FromForm } from "@/lib/onboarding/form";
import { completeStep1 } from "@/lib/onboarding/service";
import { renewSessionCookie } from "@/lib/auth/renew-session-cookie";

/** Onboarding step 1 (individual profile), multipart with the spec's field names. */
export const POST = apiRoute(async (request, db) => {
  const caller = await requireCaller(db, request);
  const { fields, images } = await step1FromForm(await readMultipart(request));
  const data = await completeStep1(db, caller.userId, fields, images);
  return renewSessionCookie(db, request, caller, NextResponse.json({ success: true, data }));
});
