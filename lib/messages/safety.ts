import "server-only";
import type { SafetyReactions } from "@/lib/safety/reactions";
import { suspends } from "@/lib/safety/rules";
import { and, eq, isNull, or } from "drizzle-orm";
import { conversations } from "@/db/schema";
import { endConversationBetween, endConversations } from "./ending";
import { holdMembersOfMessage } from "./queries";
import { removeMessage } from "./service";

/** Messaging's reactions to safety (listed in lib/registry/safety.ts). */
export const messagesSafety: SafetyReactions = {
  /** A block either way ends the two couples' conversation. */
  blocked: (tx, block) => endConversationBetween(tx, block.blockerCoupleId, block.blockedCoupleId),
  /** A suspended or banned couple's conversations end for the other couple ('This conversation has ended.'). */
  sanctioned: async (tx, sanction) => {
    if (!suspends(sanction.kind)) return;
    const ofCouple = or(eq(conversations.coupleLowId, sanction.coupleId), eq(conversations.coupleHighId, sanction.coupleId));
    await endConversations(tx, and(ofCouple, isNull(conversations.endedAt))!);
  },
  /**
   * The four people a removed message's erasure names (their reactions to it go, their live rows
   * told at the commit), before the message: a member's deletion takes their row, then their
   * reactions with it.
   */
  holdNamed: async (tx, content) => {
    if (content.targetType === "message") await holdMembersOfMessage(tx, content.targetId);
  },
  /** A removed message is erased as its author would erase it. */
  reportResolved: async (tx, report) =>
    report.targetType === "message" && report.action === "remove" ? removeMessage(tx, report.targetId) : [],
};
