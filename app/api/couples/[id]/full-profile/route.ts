import { NextResponse } from "next/server";
import { loadCoupleProfile } from "@/lib/couples/queries";
import { route, stringParams } from "@/lib/http/route";

/** A couple's profile as the caller may see it, with the access of its page (/profile/{coupleId}); hidden and missing couples are both 404. */
export const GET = route({ access: "complete-profile", params: stringParams("id") }, async ({ db, caller, params }) => {
  const data = await loadCoupleProfile(db, caller.userId, params.id);
  return NextResponse.json({ success: true, data });
});
