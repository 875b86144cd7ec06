"use server";

import { revalidatePath } from "next/cache";
import { action } from "@/lib/http/action";
import { parseWith } from "@/lib/http/errors";
import { reportContext } from "@/lib/forum/reports";
import { moderationParamsSchema } from "@/lib/forum/schemas";
import { SAFETY_REACTIONS } from "@/lib/registry/safety";
import { resolveReport } from "@/lib/safety/reports";
import { decideHeldHello } from "@/lib/connections/held";
import {
  appealDecisionParamsSchema,
  heldDecisionParamsSchema,
  idParamsSchema,
  liftSchema,
  sanctionSchema,
} from "@/lib/safety/moderation-schemas";
import { decideAppeal } from "@/lib/safety/appeals";
import { liftSanction, sanctionCouple } from "@/lib/safety/sanctions";

/** Dismiss or remove a report's target: the same domain function as POST /api/moderation/reports/{id}/{action}. */
export const resolveReportAction = action(
  {
    access: "moderator",
    input: (id: unknown, decision: unknown) => parseWith(moderationParamsSchema, { id, action: decision }),
    failure: "Could not save the decision. Please try again.",
  },
  async ({ db, moderator, input }) => {
    await resolveReport(db, moderator, input.id, input.action, SAFETY_REACTIONS);
    revalidatePath("/moderation");
    return {};
  },
);

/** Warn, restrict, suspend or ban a couple: the same domain function as POST /api/moderation/couples/{id}/actions. */
export const sanctionCoupleAction = action(
  {
    access: "moderator",
    input: (coupleId: unknown, values: unknown) => ({
      coupleId: parseWith(idParamsSchema, { id: coupleId }).id,
      sanction: parseWith(sanctionSchema, values),
    }),
    failure: "Could not save the action. Please try again.",
  },
  async ({ db, moderator, input }) => {
    await sanctionCouple(db, moderator, input.coupleId, input.sanction, SAFETY_REACTIONS);
    revalidatePath("/moderation", "layout");
    return {};
  },
);

/** Lift an action with a reason: the same domain function as POST /api/moderation/sanctions/{id}/lift. */
export const liftSanctionAction = action(
  {
    access: "moderator",
    input: (sanctionId: unknown, values: unknown) => ({
      sanctionId: parseWith(idParamsSchema, { id: sanctionId }).id,
      reason: parseWith(liftSchema, values).reason,
    }),
    failure: "Could not lift it. Please try again.",
  },
  async ({ db, moderator, input }) => {
    await liftSanction(db, moderator, input.sanctionId, input.reason, SAFETY_REACTIONS);
    revalidatePath("/moderation", "layout");
    return {};
  },
);

/** Grant (lift) or refuse an appeal: the same domain function as POST /api/moderation/appeals/{id}/{decision}. */
export const decideAppealAction = action(
  {
    access: "moderator",
    input: (id: unknown, decision: unknown) => parseWith(appealDecisionParamsSchema, { id, decision }),
    failure: "Could not save the decision. Please try again.",
  },
  async ({ db, moderator, input }) => {
    await decideAppeal(db, moderator, input.id, input.decision, SAFETY_REACTIONS);
    revalidatePath("/moderation", "layout");
    return {};
  },
);

/** Open a reported message's context (the ten before it), logged: the same domain function as GET /api/moderation/reports/{id}/context. */
export const openReportContextAction = action(
  {
    access: "moderator",
    input: (id: unknown) => parseWith(idParamsSchema, { id }),
    failure: "Could not open the conversation. Please try again.",
  },
  async ({ db, moderator, input }) => ({ messages: await reportContext(db, moderator, input.id) }),
);

/** Deliver a held hello as a normal request, or drop it: the same domain function as POST /api/moderation/held/{id}/{decision}. */
export const decideHeldHelloAction = action(
  {
    access: "moderator",
    input: (id: unknown, decision: unknown) => parseWith(heldDecisionParamsSchema, { id, decision }),
    failure: "Could not save the decision. Please try again.",
  },
  async ({ db, moderator, input }) => {
    await decideHeldHello(db, moderator, input.id, input.decision);
    revalidatePath("/moderation", "layout");
    return {};
  },
);
