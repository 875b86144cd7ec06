"use server";

import { action } from "@/lib/http/action";
import { parseWith } from "@/lib/http/errors";
import { idParamsSchema } from "@/lib/safety/moderation-schemas";
import { markWarningSeen } from "@/lib/safety/sanctions";

/** A partner read the moderators' warning: it is not shown again, to either partner. */
export const acknowledgeWarningAction = action(
  {
    access: "complete-profile",
    input: (id: unknown) => parseWith(idParamsSchema, { id }),
    failure: "Could not save that. Please try again.",
  },
  async ({ db, couple, input }) => {
    await markWarningSeen(db, couple.coupleId, input.id);
    // The root layout is not revalidated: that would rebuild the prerendered public pages (/register,
    // /signout), whose inline scripts the CSP allows by the build's hashes. The notice refreshes
    // its own page (router.refresh), which is rendered per request anyway.
    return {};
  },
);
