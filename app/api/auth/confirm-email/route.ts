import { NextResponse } from "next/server";
import { confirmEmailChange } from "@/lib/auth/account-security";
import { confirmEmailChangeSchema } from "@/lib/auth/schemas";
import { jsonBody, route } from "@/lib/http/route";

/** Uses the link sent to the new address (signed in as its account): the address changes now. */
export const POST = route({ access: "signed-in", input: jsonBody(confirmEmailChangeSchema) }, async ({ db, caller, input }) => {
  const { email } = await confirmEmailChange(db, caller.userId, input.token);
  return NextResponse.json({ data: { email } });
});
