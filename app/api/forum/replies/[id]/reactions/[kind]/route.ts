import { reactionHandlers } from "@/lib/forum/reaction-route";

/** Reactions on a reply: PUT adds, DELETE removes, both idempotent. */
export const { PUT, DELETE } = reactionHandlers("reply");
