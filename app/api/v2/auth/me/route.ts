import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { currentUserBySession } from "@/lib/profile/queries";

/**
 * The flat current-user response; 409 with the partial account while onboarding is incomplete
 * (signed-in, not complete-profile: the incomplete answer carries the account). The session's
 * liveness and the user are read in one round trip.
 */
export const GET = route({ access: "signed-in", withSession: currentUserBySession }, async ({ live }) => {
  const { user, profileComplete } = live;
  const headers = { "Cache-Control": "private, no-store" };
  if (!profileComplete) {
    return NextResponse.json(
      { error: { code: "PROFILE_INCOMPLETE", message: "User profile incomplete - continue with onboarding" }, user },
      { status: 409, headers },
    );
  }
  return NextResponse.json(user, { headers });
});
