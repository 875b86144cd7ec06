import { NextResponse } from "next/server";
import { discoverSuggestions } from "@/lib/discover/queries";
import { route } from "@/lib/http/route";

/** Suggested couples, best first: `{data: [{coupleId, coupleName, ..., distance, reasons: [text]}]}`. */
export const GET = route({ access: "complete-profile" }, async ({ db, caller }) => {
  return NextResponse.json({ data: await discoverSuggestions(db, caller.userId) }, { headers: { "Cache-Control": "no-store" } });
});
