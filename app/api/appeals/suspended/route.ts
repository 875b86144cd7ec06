import { NextResponse } from "next/server";
import { authenticate } from "@/lib/auth/credentials";
import { jsonBody, route } from "@/lib/http/route";
import { appealSuspension } from "@/lib/safety/appeals";
import { suspendedAppealSchema } from "@/lib/safety/moderation-schemas";

/**
 * Signed out by their suspension, a partner appeals with their e-mail and password (the sign-in's
 * checks and limits; no session is made): once per suspension or ban.
 */
export const POST = route({ access: "public", input: jsonBody(suspendedAppealSchema) }, async ({ db, input, clientAddress }) => {
  const user = await authenticate(db, input, { clientAddress, forAppeal: true });
  return NextResponse.json({ data: await appealSuspension(db, user.id, input.body) }, { status: 201 });
});
