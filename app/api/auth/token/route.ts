import { NextResponse } from "next/server";
import { rotateRefreshToken, startApiSession } from "@/lib/auth/api-tokens";
import { authenticate } from "@/lib/auth/credentials";
import { tokenRequestSchema } from "@/lib/auth/schemas";
import { jsonBody, route } from "@/lib/http/route";

/** Sessions for non-browser clients: a password grant, or a refresh-token rotation. */
export const POST = route({ access: "public", input: jsonBody(tokenRequestSchema) }, async ({ db, input, request, clientAddress }) => {
  const session =
    input.grant_type === "password"
      ? await startApiSession(db, await authenticate(db, input, { clientAddress }), {
          userAgent: request.headers.get("user-agent"),
        })
      : await rotateRefreshToken(db, input.refresh_token);
  return NextResponse.json(session, { headers: { "Cache-Control": "no-store" } });
});
