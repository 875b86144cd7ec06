import { NextResponse } from "next/server";
import { parseWith, readJson } from "@/lib/http/errors";
import { apiRoute } from "@/lib/http/route";
import { requireCaller } from "@/lib/http/request-auth";
import { profileCompletionSchema } from "@/lib/profile/rules";
import { completeProfileSetup } from "@/lib/profile/complete-setup";
import { renewSessionCookie } from "@/lib/auth/renew-session-cookie";

/** Profile completion in one call: {userData, coupleData} (spec section 3). */
export const POST = apiRoute(async (request, db) => {
  const caller = await requireCaller(db, request);
  const input = parseWith(profileCompletionSchema, await readJson(request), { firstIssue: true });
  const data = await completeProfileSetup(db, caller.userId, input);
  return renewSessionCookie(db, request, caller, NextResponse.json({ success: true, data }));
});
