import { reactionHandlers } from "@/lib/forum/reaction-route";

/** Reactions on a post: PUT adds, DELETE removes, both idempotent. */
export const { PUT, DELETE } = reactionHandlers("post");
