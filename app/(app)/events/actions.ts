"use server";

import { revalidatePath } from "next/cache";
import { createDraft, joinWaitlist } from "@/lib/events/service";
import { createEventSchema } from "@/lib/events/schemas";
import { action } from "@/lib/http/action";
import { parseWith } from "@/lib/http/errors";

/** 'Notify us when events launch': the same domain function as POST /api/events/waitlist. */
export const joinWaitlistAction = action(
  { access: "complete-profile", failure: "Could not save that. Please try again." },
  async ({ db, couple }) => {
    await joinWaitlist(db, couple);
    revalidatePath("/events");
    return {};
  },
);

/** The create form: the same domain function as POST /api/events. */
export const createEventAction = action(
  {
    access: "complete-profile",
    input: (values: unknown) => parseWith(createEventSchema, values),
    failure: "Could not save the draft. Please try again.",
  },
  async ({ db, couple, input, clientAddress }) => {
    const draft = await createDraft(db, couple, input, { clientAddress });
    revalidatePath("/events");
    return { id: draft.id };
  },
);
