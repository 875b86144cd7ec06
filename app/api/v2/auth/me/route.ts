import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/http/route";
import { requireCaller } from "@/lib/http/request-auth";
import { loadCurrentUser } from "@/lib/profile/queries";

/** The flat current-user response; 409 with the partial account while onboarding is incomplete. */
export const GET = apiRoute(async (request, db) => {
  const caller = await requireCaller(db, request);
  const { user, profileComplete } = await loadCurrentUser(db, caller.userId);
  const headers = { "Cache-Control": "private, no-store" };
  if (!profileComplete) {
    return NextResponse.json(
      { error: { code: "PROFILE_INCOMPLETE", message: "User profile incomplete - continue with onboarding" }, user },
      { status: 409, headers },
    );
  }
  return NextResponse.json(user, { headers });
});
