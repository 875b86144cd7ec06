import "server-only";
import type { SafetyReactions } from "@/lib/safety/reactions";
import { endConversationBetween } from "./ending";
import { removeMessage } from "./service";

/** Messaging's reactions to safety (listed in lib/registry/safety.ts). */
export const messagesSafety: SafetyReactions = {
  /** A block either way ends the two couples' conversation. */
  blocked: (tx, block) => endConversationBetween(tx, block.blockerCoupleId, block.blockedCoupleId),
  /** A removed message is erased as its author would erase it. */
  reportResolved: async (tx, report) =>
    report.targetType === "message" && report.action === "remove" ? removeMessage(tx, report.targetId) : [],
};
