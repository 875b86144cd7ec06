import { NextResponse } from "next/server";
import { jsonBody, route } from "@/lib/http/route";
import { invitePartnerSchema } from "@/lib/invitations/schemas";
import { sendInvitation } from "@/lib/invitations/send";
import { deliverAfterResponse } from "@/lib/mail/outbox";
import { LIMITS } from "@/lib/rate-limit";

/**
 * Partner A invites partner B by e-mail; the answer carries the shareable link's token (not the
 * e-mailed one, which stays the proof of the address) for sharing it by other means.
 */
export const POST = route(
  { access: "signed-in", limits: [LIMITS.invitationsPerInviter], input: jsonBody(invitePartnerSchema) },
  async ({ db, caller, input }) => {
    const { invitation, emailIds } = await sendInvitation(db, caller.userId, input);
    deliverAfterResponse(db, emailIds);
    return NextResponse.json({ success: true, invitation }, { headers: { "Cache-Control": "no-store" } });
  },
);
