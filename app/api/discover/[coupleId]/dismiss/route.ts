import { NextResponse } from "next/server";
import { dismissSuggestion } from "@/lib/discover/service";
import { route, stringParams } from "@/lib/http/route";
import { DISMISSALS_PER_USER } from "@/lib/discover/rules";

/** 'Not for us': hides the couple from the caller's suggestions for 30 days. */
export const POST = route(
  { access: "complete-profile", limits: [DISMISSALS_PER_USER], params: stringParams("coupleId") },
  async ({ db, couple, params }) => {
    return NextResponse.json({ data: await dismissSuggestion(db, couple, params.coupleId) });
  },
);
