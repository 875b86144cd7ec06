import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { currentUserBySession } from "@/lib/profile/queries";

/**
 * The flat current-user response; 409 with the partial account while onboarding is incomplete
 * (signed-in, not complete-profile: the incomplete answer carries the account). The session's
 * liveness and the user are read in one round trip.
 */
export const GET = route({ access: "signed-in", session: currentUserBySession }, async ({ live }) => {
  const { user, profileComplete } = live;
  // no-transform: not gzipped (Next's compression honours it). Every client asks this often and
  // it is ~1.4 kB: gzip was the top frame of the server's CPU profile under load, for ~1 kB saved.
  const headers = { "Cache-Control": "private, no-store, no-transform" };
  if (!profileComplete) {
    return NextResponse.json(
      { error: { code: "PROFILE_INCOMPLETE", message: "User profile incomplete - continue with onboarding" }, user },
      { status: 409, headers },
    );
  }
  return NextResponse.json(user, { headers });
});
