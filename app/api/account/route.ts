import { NextResponse } from "next/server";
import { deleteAccount } from "@/lib/account/deletion";
import { deleteAccountSchema } from "@/lib/account/schemas";
import { clearSessionCookie } from "@/lib/auth/guard-session";
import { jsonBody, route } from "@/lib/http/route";

/** 'Delete my account' with the password: the person's rows and images go (lib/account/deletion). */
export const DELETE = route(
  { access: "signed-in", input: jsonBody(deleteAccountSchema, { firstIssue: true }) },
  async ({ db, caller, input, request }) => {
    const outcome = await deleteAccount(db, caller.userId, input.password);
    const response = NextResponse.json({ data: { couple: outcome.couple } });
    // Its session rows are gone with the account; the browser forgets the cookie too.
    return clearSessionCookie(request, response);
  },
);
