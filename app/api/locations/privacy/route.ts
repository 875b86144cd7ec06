import { NextResponse } from "next/server";
import { jsonBody, route } from "@/lib/http/route";
import { privacyInputSchema } from "@/lib/locations/schemas";
import { setPrivacy } from "@/lib/locations/service";
import { LIMITS } from "@/lib/rate-limit";

export const PUT = route(
  { access: "signed-in", limits: [LIMITS.locationSettingsPerUser], input: jsonBody(privacyInputSchema, { firstIssue: true }) },
  async ({ db, caller, input }) => {
    const location = await setPrivacy(db, input, caller);
    return NextResponse.json({ success: true, location });
  },
);
