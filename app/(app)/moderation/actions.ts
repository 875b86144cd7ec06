"use server";

import { revalidatePath } from "next/cache";
import { action } from "@/lib/http/action";
import { parseWith } from "@/lib/http/errors";
import { moderationParamsSchema } from "@/lib/forum/schemas";
import { SAFETY_REACTIONS } from "@/lib/registry/safety";
import { moderatorOf } from "@/lib/safety/moderators";
import { resolveReport } from "@/lib/safety/reports";

/** Dismiss or remove a report's target: the same domain function as POST /api/moderation/reports/{id}/{action}. */
export const resolveReportAction = action(
  {
    access: "moderator",
    input: (id: unknown, decision: unknown) => parseWith(moderationParamsSchema, { id, action: decision }),
    failure: "Could not save the decision. Please try again.",
  },
  async ({ db, caller, input }) => {
    await resolveReport(db, await moderatorOf(db, caller.userId), input.id, input.action, SAFETY_REACTIONS);
    revalidatePath("/moderation");
    return {};
  },
);
