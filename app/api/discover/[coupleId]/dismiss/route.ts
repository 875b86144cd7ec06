import { NextResponse } from "next/server";
import { dismissSuggestion } from "@/lib/discover/service";
import { route, stringParams } from "@/lib/http/route";

/** 'Not for us': hides the couple from the caller's suggestions for 30 days. */
export const POST = route({ access: "complete-profile", params: stringParams("coupleId") }, async ({ db, couple, params }) => {
  return NextResponse.json({ data: await dismissSuggestion(db, couple, params.coupleId) });
});
