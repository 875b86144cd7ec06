import { NextResponse } from "next/server";
import { route, searchParams } from "@/lib/http/route";
import { nearby } from "@/lib/locations/nearby";
import { nearbyQuerySchema } from "@/lib/locations/schemas";
import { LIMITS } from "@/lib/rate-limit";

/**
 * Other couples' places, as the directory and discover show them: only to a couple that finished
 * onboarding (spec section 2, complete profile required for browsing couples), like those pages.
 */
export const GET = route(
  { access: "complete-profile", limits: [LIMITS.nearbyPerUser], input: searchParams(nearbyQuerySchema, { firstIssue: true }) },
  async ({ db, caller, input }) => {
    const locations = await nearby(db, input, caller);
    return NextResponse.json({ success: true, data: { locations, radius: input.radius, limit: input.limit } });
  },
);
