/**
 * The values the forum's enums hold (db/schema/forum.ts), in display order. No imports: the schema
 * and the forum's browser-safe rules (lib/forum/rules.ts, which adds the labels) both read them,
 * so the database depends on no domain module.
 */
export const TOPIC_VALUES = [
  "travel",
  "food_drink",
  "outdoors",
  "culture_creativity",
  "wellness",
  "career_money",
  "home_life",
  "meetups",
] as const;
export type ForumTopic = (typeof TOPIC_VALUES)[number];

export const SCOPE_VALUES = ["global", "local"] as const;
export type ForumScope = (typeof SCOPE_VALUES)[number];

export const REACTION_KINDS = ["heart", "laugh", "wow", "clap", "hug"] as const;
export type ReactionKind = (typeof REACTION_KINDS)[number];

/** What a report names (filed by lib/safety/reports.ts); a `request` is a hello (`connection_requests`). */
export const REPORT_TARGET_TYPES = ["post", "reply", "couple", "message", "plan", "request"] as const;
export type ReportTargetType = (typeof REPORT_TARGET_TYPES)[number];

export const REPORT_REASON_VALUES = ["spam", "harassment", "inappropriate", "other"] as const;
export type ReportReason = (typeof REPORT_REASON_VALUES)[number];
