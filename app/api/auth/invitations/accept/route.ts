import { NextResponse } from "next/server";
import { startApiSession } from "@/lib/auth/api-tokens";
import { clientAddress } from "@/lib/http/client-address";
import { parseWith, readJson } from "@/lib/http/errors";
import { apiRoute } from "@/lib/http/route";
import { acceptInvitation } from "@/lib/invitations/join";
import { acceptInvitationSchema } from "@/lib/invitations/rules";

/**
 * Partner B accepts: the new account comes back signed in (an API session), so no second
 * sign-in step is needed and the password is never echoed.
 */
export const POST = apiRoute(async (request, db) => {
  const input = parseWith(acceptInvitationSchema, await readJson(request));
  const { user, couple } = await acceptInvitation(db, input, { clientAddress: clientAddress(request.headers) });
  const session = await startApiSession(db, user);
  return NextResponse.json(
    {
      success: true,
      autoLogin: { required: false },
      session: { access_token: session.access_token, refresh_token: session.refresh_token, expires_at: session.expires_at },
      user: { id: user.id, email: user.email },
      couple,
    },
    { headers: { "Cache-Control": "no-store" } },
  );
});
