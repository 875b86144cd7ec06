import { NextResponse } from "next/server";
import { route, searchParams } from "@/lib/http/route";
import { searchQuerySchema } from "@/lib/locations/schemas";
import { publicPlaceSearch } from "@/lib/locations/search";

/** Public (registration uses it before there is a session): no auth header is read at all. */
export const GET = route(
  { access: "public", input: searchParams(searchQuerySchema, { firstIssue: true }) },
  async ({ db, input, clientAddress }) => {
    const predictions = await publicPlaceSearch(db, input, { clientAddress });
    return NextResponse.json({ success: true, data: { predictions } });
  },
);
