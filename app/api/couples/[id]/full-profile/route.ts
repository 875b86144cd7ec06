import { NextResponse } from "next/server";
import { loadCoupleProfile } from "@/lib/couples/queries";
import { apiRoute } from "@/lib/http/route";
import { requireCaller } from "@/lib/http/request-auth";

/** A couple's profile as the caller may see it; hidden and missing couples are both 404. */
export const GET = apiRoute<{ id: string }>(async (request, db, { id }) => {
  const caller = await requireCaller(db, request);
  const data = await loadCoupleProfile(db, caller.userId, id);
  return NextResponse.json({ success: true, data });
});
