import { NextResponse } from "next/server";
import { route, searchParams } from "@/lib/http/route";
import { nearby, nearbyQuerySchema } from "@/lib/locations";

export const GET = route(
  { access: "signed-in", input: searchParams(nearbyQuerySchema, { firstIssue: true }) },
  async ({ db, caller, input }) => {
    const locations = await nearby(db, input, caller);
    return NextResponse.json({ success: true, data: { locations, radius: input.radius, limit: input.limit } });
  },
);
