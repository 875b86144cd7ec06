import { reactionHandlers } from "@/app/api/forum/reaction-handlers";

/** Reactions on a reply: PUT adds, DELETE removes, both idempotent. */
export const { PUT, DELETE } = reactionHandlers("reply");
