import { NextResponse } from "next/server";
import { csrfTokenFor } from "@/lib/http/request-auth";
import { route } from "@/lib/http/route";

/** The X-CSRF-Token for cookie-authenticated mutating calls. Bearer clients do not need one. */
export const GET = route({ access: "optional" }, async ({ caller }) => {
  const token = caller?.via === "cookie" ? csrfTokenFor(caller.sessionId) : null;
  return NextResponse.json({ csrfToken: token, token }, { headers: { "Cache-Control": "no-store" } });
});
