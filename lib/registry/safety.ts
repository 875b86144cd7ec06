import "server-only";
import { connectionsSafety } from "@/lib/connections/safety";
import { forumSafety } from "@/lib/forum/safety";
import { messagesSafety } from "@/lib/messages/safety";
import { notificationsSafety } from "@/lib/notifications/moderation";
import { plansSafety } from "@/lib/plans/safety";
import type { SafetyReactions } from "@/lib/safety/reactions";

/**
 * The features that react to a block, a hiding by reports or a moderator's decision, or show a couple hidden from the
 * directory (lib/safety/reactions.ts): one line each.
 */
export const SAFETY_REACTIONS: readonly SafetyReactions[] = [
  connectionsSafety,
  forumSafety,
  messagesSafety,
  notificationsSafety,
  plansSafety,
];
