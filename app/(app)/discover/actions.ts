"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { dismissSuggestion } from "@/lib/discover/service";
import { action } from "@/lib/http/action";

/** 'Not for us': the same domain function as POST /api/discover/{coupleId}/dismiss. */
export const dismissSuggestionAction = action(
  {
    access: "complete-profile",
    input: (coupleId: unknown) => z.string().max(100).parse(coupleId),
    failure: "Could not hide this couple. Please try again.",
  },
  async ({ db, couple, input }) => {
    const { hiddenUntil } = await dismissSuggestion(db, couple, input);
    revalidatePath("/discover");
    revalidatePath("/dashboard");
    return { hiddenUntil };
  },
);
