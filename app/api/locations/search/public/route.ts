import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/http/route";
import { parseLocationInput, searchPlaces, searchQuerySchema } from "@/lib/locations";

/** Public (registration uses it before there is a session): no auth header is read at all. */
export const GET = apiRoute(async (request) => {
  const input = parseLocationInput(searchQuerySchema, Object.fromEntries(request.nextUrl.searchParams));
  const predictions = await searchPlaces(input);
  return NextResponse.json({ success: true, data: { predictions } });
});
