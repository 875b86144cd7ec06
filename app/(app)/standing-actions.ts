"use server";

import { revalidatePath } from "next/cache";
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
    revalidatePath("/", "layout");
    return {};
  },
);
