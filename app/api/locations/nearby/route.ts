import { NextResponse } from "next/server";
import { requireCaller } from "@/lib/http/request-auth";
import { apiRoute } from "@/lib/http/route";
import { nearby, nearbyQuerySchema, parseLocationInput } from "@/lib/locations";

export const GET = apiRoute(async (request, db) => {
  const caller = await requireCaller(db, request);
  const query = parseLocationInput(nearbyQuerySchema, Object.fromEntries(request.nextUrl.searchParams));
  const locations = await nearby(db, query, caller);
  return NextResponse.json({ success: true, data: { locations, radius: query.radius, limit: query.limit } });
});
