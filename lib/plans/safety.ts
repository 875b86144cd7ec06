import "server-only";
import { couplePartners } from "@/lib/membership/partner";
import type { SafetyReactions } from "@/lib/safety/reactions";
import { suspends } from "@/lib/safety/rules";
import { cancelPlansBetween, cancelPlansOfCouple, removePlan } from "./ending";
import { holdPeopleOf } from "./queries";

/** Plans' reactions to safety (listed in lib/registry/safety.ts). */
export const plansSafety: SafetyReactions = {
  /** A block either way cancels the two couples' upcoming plans. */
  blocked: (tx, block) => cancelPlansBetween(tx, block.blockerCoupleId, block.blockedCoupleId),
  /**
   * A suspended or banned couple can no longer meet: its upcoming plans are cancelled, the other
   * couples told (a warning or a restriction leaves them: the couple may still meet).
   */
  sanctioned: async (tx, sanction) => {
    if (!suspends(sanction.kind)) return;
    await cancelPlansOfCouple(tx, sanction.coupleId, await couplePartners(tx, sanction.coupleId));
  },
  /** The four people a removed plan's cancelling tells, before the plan (holdPeopleOf). */
  holdNamed: async (tx, content) => {
    if (content.targetType === "plan") await holdPeopleOf(tx, { planId: content.targetId });
  },
  /** A removed plan's words are erased (and it is cancelled if still to come, all four told it can no longer take place). */
  reportResolved: async (tx, report) => {
    if (report.targetType === "plan" && report.action === "remove") await removePlan(tx, report.targetId);
    return [];
  },
};
