import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/http/route";
import { requireCaller } from "@/lib/http/request-auth";
import { readMultipart, step2FromForm } from "@/lib/onboarding/form";
import { completeStep2 } from "@/lib/onboarding/service";
import { renewSessionCookie } from "@/lib/auth/renew-session-cookie";

/** Onboarding step 2 (couple profile), multipart with the spec's field names; creates the couple. */
export const POST = apiRoute(async (request, db) => {
  const caller = await requireCaller(db, request);
  const { fields, images } = await step2FromForm(await readMultipart(request));
  const data = await completeStep2(db, caller.userId, fields, images);
  return renewSessionCookie(db, request, caller, NextResponse.json({ success: true, data }, { status: 201 }));
});
