import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/http/route";
import { csrfTokenFor, optionalCaller } from "@/lib/http/request-auth";

/** The X-CSRF-Token for cookie-authenticated mutating calls. Bearer clients do not need one. */
export const GET = apiRoute(async (request, db) => {
  const caller = await optionalCaller(db, request);
  const token = caller?.via === "cookie" ? csrfTokenFor(caller.sessionId) : null;
  return NextResponse.json({ csrfToken: token, token }, { headers: { "Cache-Control": "no-store" } });
});
