"use server";

import { getDb } from "@/db/client";
import { requireActionUserId } from "@/lib/auth/current-session";
import { actionFailure, type ActionResult } from "@/lib/http/action-result";
import { parseWith } from "@/lib/http/errors";
import { invitePartnerSchema, MESSAGES } from "@/lib/invitations/rules";
import { sendInvitation, type SentInvitation } from "@/lib/invitations/send";
import { deliverAfterResponse } from "@/lib/mail/outbox";

/** The invite form's server action: the same domain function as POST /api/auth/send-invitation. */
export async function sendInvitationAction(values: unknown): Promise<ActionResult<Pick<SentInvitation, "invitation">>> {
  try {
    const userId = await requireActionUserId();
    const input = parseWith(invitePartnerSchema, values);
    const db = await getDb();
    const { invitation, emailIds } = await sendInvitation(db, userId, input);
    deliverAfterResponse(db, emailIds);
    return { ok: true, invitation };
  } catch (error) {
    return actionFailure(error, MESSAGES.sendFailed);
  }
}

