import { NextResponse } from "next/server";
import { route, searchParams } from "@/lib/http/route";
import { nearby } from "@/lib/locations/nearby";
import { nearbyQuerySchema } from "@/lib/locations/schemas";

export const GET = route(
  { access: "signed-in", input: searchParams(nearbyQuerySchema, { firstIssue: true }) },
  async ({ db, caller, input }) => {
    const locations = await nearby(db, input, caller);
    return NextResponse.json({ success: true, data: { locations, radius: input.radius, limit: input.limit } });
  },
);
