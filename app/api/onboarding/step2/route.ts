import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { readMultipart, step2FromForm } from "@/lib/onboarding/form";
import { completeStep2 } from "@/lib/onboarding/service";
import { renewSessionCookie } from "@/lib/auth/renew-session-cookie";

/** Onboarding step 2 (couple profile), multipart with the spec's field names; creates the couple. */
export const POST = route(
  { access: "signed-in", input: async (request) => step2FromForm(await readMultipart(request)) },
  async ({ db, caller, request, input: { fields, images } }) => {
    const data = await completeStep2(db, caller.userId, fields, images);
    return renewSessionCookie(db, request, caller, NextResponse.json({ success: true, data }, { status: 201 }));
  },
);
