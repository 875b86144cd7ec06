import "server-only";
import type { SafetyReactions } from "@/lib/safety/reactions";
import { dropPostPhotos } from "./photos";

/** The forum's reactions to safety (listed in lib/registry/safety.ts). */
export const forumSafety: SafetyReactions = {
  /** A removed post's photos go, files and all: the URL of a photo taken down stops answering. */
  reportResolved: async (tx, report) =>
    report.targetType === "post" && report.action === "remove" ? dropPostPhotos(tx, report.targetId) : [],
};
