import { NextResponse } from "next/server";
import { confirmEmailChange } from "@/lib/auth/account-security";
import { deviceCookieOn } from "@/lib/auth/device-cookie";
import { confirmEmailChangeSchema } from "@/lib/auth/schemas";
import { jsonBody, route } from "@/lib/http/route";

/**
 * Uses the link sent to the new address (signed in as its account): the address changes now. The
 * browser stays trusted with a device cookie for the new address (every other one's trust ends).
 */
export const POST = route({ access: "signed-in", input: jsonBody(confirmEmailChangeSchema) }, async ({ db, caller, input }) => {
  const { email, device } = await confirmEmailChange(db, caller.userId, input.token);
  const response = NextResponse.json({ data: { email } });
  return caller.via === "cookie" ? deviceCookieOn(response, device) : response;
});
