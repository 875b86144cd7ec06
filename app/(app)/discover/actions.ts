"use server";

import { revalidatePath } from "next/cache";
import { dismissedCoupleIdSchema } from "@/lib/discover/schemas";
import { dismissSuggestion } from "@/lib/discover/service";
import { action } from "@/lib/http/action";

/** 'Not for us': the same domain function as POST /api/discover/{coupleId}/dismiss. */
export const dismissSuggestionAction = action(
  {
    access: "complete-profile",
    input: (coupleId: unknown) => dismissedCoupleIdSchema.parse(coupleId),
    failure: "Could not hide this couple. Please try again.",
  },
  async ({ db, couple, input }) => {
    const { hiddenUntil } = await dismissSuggestion(db, couple, input);
    revalidatePath("/discover");
    revalidatePath("/dashboard");
    return { hiddenUntil };
  },
);
