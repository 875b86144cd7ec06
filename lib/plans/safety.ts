import "server-only";
import { couplePartners } from "@/lib/membership/partner";
import type { SafetyReactions } from "@/lib/safety/reactions";
import { cancelPlansBetween, cancelPlansOfCouple, cancelRemovedPlan } from "./ending";

/** Plans' reactions to safety (listed in lib/registry/safety.ts). */
export const plansSafety: SafetyReactions = {
  /** A block either way cancels the two couples' upcoming plans. */
  blocked: (tx, block) => cancelPlansBetween(tx, block.blockerCoupleId, block.blockedCoupleId),
  /**
   * A suspended couple's upcoming plans are cancelled, and a removed plan if still to come; the
   * others are told it can no longer take place.
   */
  reportResolved: async (tx, report) => {
    if (report.targetType === "plan" && report.action === "remove") await cancelRemovedPlan(tx, report.targetId);
    if (report.targetType === "couple" && report.action === "remove") {
      await cancelPlansOfCouple(tx, report.targetId, await couplePartners(tx, report.targetId));
    }
    return [];
  },
};
