import { NextResponse } from "next/server";
import { jsonBody, route } from "@/lib/http/route";
import { normalizeInputSchema, normalizeLocation } from "@/lib/locations";

export const POST = route(
  { access: "signed-in", input: jsonBody(normalizeInputSchema, { firstIssue: true }) },
  async ({ db, caller, input }) => {
    const location = await normalizeLocation(db, input, caller);
    return NextResponse.json({ success: true, location });
  },
);
