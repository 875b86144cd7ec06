import { NextResponse } from "next/server";
import { clientAddress } from "@/lib/http/client-address";
import { jsonBody, route } from "@/lib/http/route";
import { normalizeInputSchema } from "@/lib/locations/schemas";
import { normalizeLocation } from "@/lib/locations/service";

export const POST = route(
  { access: "signed-in", input: jsonBody(normalizeInputSchema, { firstIssue: true }) },
  async ({ db, caller, input, request }) => {
    const location = await normalizeLocation(db, input, caller, { clientAddress: clientAddress(request.headers) });
    return NextResponse.json({ success: true, location });
  },
);
