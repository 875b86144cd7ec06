import { NextResponse } from "next/server";
import { revokeSession } from "@/lib/auth/sessions";
import { apiRoute } from "@/lib/http/route";
import { requireCaller } from "@/lib/http/request-auth";

/** Ends the caller's session: its access and refresh tokens stop working at once. */
export const POST = apiRoute(async (request, db) => {
  const caller = await requireCaller(db, request);
  await revokeSession(db, caller.sessionId);
  return NextResponse.json({ success: true });
});
