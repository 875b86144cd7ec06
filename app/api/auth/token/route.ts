import { NextResponse } from "next/server";
import { rotateRefreshToken, startApiSession } from "@/lib/auth/api-tokens";
import { authenticate } from "@/lib/auth/credentials";
import { tokenRequestSchema } from "@/lib/auth/schemas";
import { clientAddress } from "@/lib/http/client-address";
import { jsonBody, route } from "@/lib/http/route";

/** Sessions for non-browser clients: a password grant, or a refresh-token rotation. */
export const POST = route({ access: "public", input: jsonBody(tokenRequestSchema) }, async ({ db, input, request }) => {
  const session =
    input.grant_type === "password"
      ? await startApiSession(db, await authenticate(db, input, { clientAddress: clientAddress(request.headers) }), {
          userAgent: request.headers.get("user-agent"),
        })
      : await rotateRefreshToken(db, input.refresh_token);
  return NextResponse.json(session, { headers: { "Cache-Control": "no-store" } });
});
