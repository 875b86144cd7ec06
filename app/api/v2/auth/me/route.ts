import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { loadCurrentUser } from "@/lib/profile/queries";

/**
 * The flat current-user response; 409 with the partial account while onboarding is incomplete
 * (signed-in, not complete-profile: the incomplete answer carries the account).
 */
export const GET = route({ access: "signed-in" }, async ({ db, caller }) => {
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
