import { NextResponse } from "next/server";
import { parseWith, readJson } from "@/lib/http/errors";
import { requireCaller } from "@/lib/http/request-auth";
import { apiRoute } from "@/lib/http/route";
import { invitePartnerSchema } from "@/lib/invitations/rules";
import { sendInvitation } from "@/lib/invitations/send";
import { deliverAfterResponse } from "@/lib/mail/outbox";

/**
 * Partner A invites partner B by e-mail; the answer carries the shareable link's token (not the
 * e-mailed one, which stays the proof of the address) for sharing it by other means.
 */
export const POST = apiRoute(async (request, db) => {
  const caller = await requireCaller(db, request);
  const input = parseWith(invitePartnerSchema, await readJson(request));
  const { invitation, emailIds } = await sendInvitation(db, caller.userId, input);
  deliverAfterResponse(db, emailIds);
  return NextResponse.json({ success: true, invitation }, { headers: { "Cache-Control": "no-store" } });
});
