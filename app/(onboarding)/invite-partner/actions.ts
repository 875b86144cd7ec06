"use server";

import { action } from "@/lib/http/action";
import { parseWith } from "@/lib/http/errors";
import { invitePartnerSchema } from "@/lib/invitations/schemas";
import { MESSAGES } from "@/lib/invitations/rules";
import { sendInvitation } from "@/lib/invitations/send";
import { deliverAfterResponse } from "@/lib/mail/outbox";

/** The invite form's server action: the same domain function as POST /api/auth/send-invitation. */
export const sendInvitationAction = action(
  { access: "signed-in", input: (values: unknown) => parseWith(invitePartnerSchema, values), failure: MESSAGES.sendFailed },
  async ({ db, caller, input }) => {
    const { invitation, emailIds } = await sendInvitation(db, caller.userId, input);
    deliverAfterResponse(db, emailIds);
    return { invitation };
  },
);
