import { NextResponse } from "next/server";
import { revokeSession } from "@/lib/auth/sessions";
import { route } from "@/lib/http/route";

/** Ends the caller's session: its access and refresh tokens stop working at once. */
export const POST = route({ access: "signed-in" }, async ({ db, caller }) => {
  await revokeSession(db, caller.sessionId);
  return NextResponse.json({ data: { signedOut: true } });
});
