import { NextResponse } from "next/server";
import { startApiSession } from "@/lib/auth/api-tokens";
import { jsonBody, route } from "@/lib/http/route";
import { acceptInvitation } from "@/lib/invitations/join";
import { acceptInvitationSchema } from "@/lib/invitations/schemas";
import { deliverAfterResponse } from "@/lib/mail/outbox";

/**
 * Partner B accepts. With the e-mailed link the new account comes back signed in (an API
 * session), so no second sign-in step is needed. With the shareable link the address is not
 * proven: no session, and the account verifies its e-mail first (`verificationRequired`). The
 * password is never echoed.
 */
export const POST = route({ access: "public", input: jsonBody(acceptInvitationSchema) }, async ({ db, input, request, clientAddress }) => {
  const { user, couple, emailIds } = await acceptInvitation(db, input, { clientAddress });
  const answer = { success: true, autoLogin: { required: false }, user: { id: user.id, email: user.email }, couple };
  const noStore = { headers: { "Cache-Control": "no-store" } };
  if (!user.emailVerifiedAt) {
    deliverAfterResponse(db, emailIds);
    return NextResponse.json({ ...answer, verificationRequired: true }, noStore);
  }
  const session = await startApiSession(
    db,
    { ...user, emailVerifiedAt: user.emailVerifiedAt },
    { userAgent: request.headers.get("user-agent") },
  );
  return NextResponse.json(
    {
      ...answer,
      verificationRequired: false,
      session: { access_token: session.access_token, refresh_token: session.refresh_token, expires_at: session.expires_at },
    },
    noStore,
  );
});
