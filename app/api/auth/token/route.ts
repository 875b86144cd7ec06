import { NextResponse } from "next/server";
import { z } from "zod";
import { rotateRefreshToken, startApiSession } from "@/lib/auth/api-tokens";
import { authenticate } from "@/lib/auth/credentials";
import { clientAddress } from "@/lib/http/client-address";
import { parseWith, readJson } from "@/lib/http/errors";
import { apiRoute } from "@/lib/http/route";

const tokenRequestSchema = z.discriminatedUnion("grant_type", [
  z.object({ grant_type: z.literal("password"), email: z.string().max(254), password: z.string().min(1).max(1024) }),
  z.object({ grant_type: z.literal("refresh_token"), refresh_token: z.string().min(1).max(200) }),
]);

/** Sessions for non-browser clients: a password grant, or a refresh-token rotation. */
export const POST = apiRoute(async (request, db) => {
  const body = parseWith(tokenRequestSchema, await readJson(request));
  const session =
    body.grant_type === "password"
      ? await startApiSession(db, await authenticate(db, body, { clientAddress: clientAddress(request.headers) }))
      : await rotateRefreshToken(db, body.refresh_token);
  return NextResponse.json(session, { headers: { "Cache-Control": "no-store" } });
});
