import { NextResponse } from "next/server";
import { jsonBody, route } from "@/lib/http/route";
import { completeRegistration } from "@/lib/invitations/complete-registration";
import { completeRegistrationSchema } from "@/lib/invitations/schemas";
import { LIMITS } from "@/lib/rate-limit";

/** Completes the signed-in account's registration; with an invitation token it also joins that couple. */
export const POST = route(
  { access: "signed-in", limits: [LIMITS.profileSavesPerUser], input: jsonBody(completeRegistrationSchema) },
  async ({ db, caller, input, clientAddress }) => {
    const data = await completeRegistration(db, caller.userId, input, { clientAddress });
    return NextResponse.json({ success: true, data });
  },
);
