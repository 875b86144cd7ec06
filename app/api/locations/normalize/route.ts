import { NextResponse } from "next/server";
import { jsonBody, route } from "@/lib/http/route";
import { normalizeInputSchema } from "@/lib/locations/schemas";
import { normalizeLocation } from "@/lib/locations/service";
import { LIMITS } from "@/lib/rate-limit";

export const POST = route(
  { access: "signed-in", limits: [LIMITS.locationSettingsPerUser], input: jsonBody(normalizeInputSchema, { firstIssue: true }) },
  async ({ db, caller, input, clientAddress }) => {
    const location = await normalizeLocation(db, input, caller, { clientAddress });
    return NextResponse.json({ success: true, location });
  },
);
