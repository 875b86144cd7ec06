import { NextResponse } from "next/server";
import { jsonBody, route } from "@/lib/http/route";
import { privacyInputSchema, setPrivacy } from "@/lib/locations";

export const PUT = route(
  { access: "signed-in", input: jsonBody(privacyInputSchema, { firstIssue: true }) },
  async ({ db, caller, input }) => {
    const location = await setPrivacy(db, input, caller);
    return NextResponse.json({ success: true, location });
  },
);
