"use server";

/*
 * The partner invitation's 'Resend' and 'Cancel' (lib/invitations/manage.ts), for the dashboard's
 * card and the settings' Partner section alike.
 */

import { revalidatePath } from "next/cache";
import { action } from "@/lib/http/action";
import { cancelInvitation, resendInvitation } from "@/lib/invitations/manage";
import { deliverAfterResponse } from "@/lib/mail/outbox";

/** 'Resend Invitation': a fresh invitation (new links, 7 more days) to the same person. */
export const resendInvitationAction = action(
  { access: "signed-in", failure: "Could not resend the invitation. Please try again." },
  async ({ db, caller }) => {
    const { invitation, emailIds } = await resendInvitation(db, caller.userId);
    deliverAfterResponse(db, emailIds);
    revalidatePath("/dashboard");
    revalidatePath("/settings/partner");
    return { expiresAt: invitation.expires_at };
  },
);

/** 'Cancel Invitation': its links stop working; the dashboard then offers 'Invite Your Partner'. */
export const cancelInvitationAction = action(
  { access: "signed-in", failure: "Could not cancel the invitation. Please try again." },
  async ({ db, caller }) => {
    await cancelInvitation(db, caller.userId);
    revalidatePath("/dashboard");
    revalidatePath("/settings/partner");
    return {};
  },
);
