import { NextResponse } from "next/server";
import { endOwnSession } from "@/lib/auth/account-security";
import { sessionIdParamsSchema } from "@/lib/auth/schemas";
import { route } from "@/lib/http/route";

/** 'Sign out' of one of the caller's sessions; another person's session is 404 with nothing changed. */
export const DELETE = route({ access: "signed-in", params: sessionIdParamsSchema }, async ({ db, caller, params }) => {
  await endOwnSession(db, caller.userId, params.id);
  return NextResponse.json({ data: { ended: true } });
});
