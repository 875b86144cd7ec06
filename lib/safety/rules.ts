/**
 * Reports and moderation: when reports hide content, how many a person may file, what a
 * moderator decides. Pure and browser-safe: the moderation queue and the server share them. What
 * may be reported and why are the forum's (lib/forum/rules.ts), as its report dialog offers them.
 */

/** Reports from this many different couples hide the content from all but its authors until reviewed. */
export const REPORT_HIDE_THRESHOLD = 3;
export const isHiddenByReports = (reportingCouples: number): boolean => reportingCouples >= REPORT_HIDE_THRESHOLD;

/** Reports per person per hour, in the shape of lib/rate-limit.ts's `Limit` (the bucket keeps the name it was first counted under). */
export const REPORTS_PER_USER = { bucket: "forum-report:user", limit: 20, windowSeconds: 60 * 60 } as const;

/** What a moderator does with an open report (and every other open report of the same target). */
export const MODERATION_ACTIONS = ["dismiss", "remove"] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

/**
 * The reasons a moderator acts on a couple: the community guidelines' headings of what is removed
 * (app/(legal)/guidelines/page.tsx renders its list from these, so the two cannot drift).
 */
export const GUIDELINES = [
  { key: "harassment", label: "Harassment", rule: "Insults, threats, unwanted advances, writing again to a couple that said no." },
  { key: "hate", label: "Hate", rule: "Attacks on people for who they are, whom they love, or for having or not having children." },
  { key: "sexual_content", label: "Sexual content", rule: "Sexual content, and any photo of a child." },
  {
    key: "private_details",
    label: "Someone else's private details",
    rule: "An address, a phone number, a photo shared without consent.",
  },
  { key: "spam", label: "Spam and scams", rule: "Spam, advertising, fundraising and scams; pretending to be someone else." },
] as const;
export type GuidelineKey = (typeof GUIDELINES)[number]["key"];
export const GUIDELINE_KEYS = GUIDELINES.map((guideline) => guideline.key) as [GuidelineKey, ...GuidelineKey[]];
export const guidelineLabel = (key: string): string => GUIDELINES.find((guideline) => guideline.key === key)?.label ?? key;

/**
 * What a moderator does to a couple: warn (a notice shown once), restrict (no hello, messages,
 * posts or replies for RESTRICT_DAYS; reading still works), suspend (signed out everywhere,
 * hidden as a hidden couple is), ban (a suspension for good, its e-mail addresses refused).
 */
export const SANCTION_KINDS = ["warn", "restrict", "suspend", "ban"] as const;
export type SanctionKind = (typeof SANCTION_KINDS)[number];
export const RESTRICT_DAYS = [1, 7, 30] as const;

/** A moderator's note for the record, and a lift's or an appeal's words. */
export const MODERATION_NOTE_MAX = 1000;
export const APPEAL_MAX = 1000;

/** Every kind of row in the moderation log (lib/safety/moderation-log.ts). */
export const LOG_ACTIONS = [
  "report_dismissed",
  "report_removed",
  "warn",
  "restrict",
  "suspend",
  "ban",
  "lift",
  "appeal_decided",
  "context_viewed",
  "role_granted",
] as const;
export type LogAction = (typeof LOG_ACTIONS)[number];
export const LOG_ACTION_LABELS: Record<LogAction, string> = {
  report_dismissed: "Report dismissed",
  report_removed: "Report: removed",
  warn: "Warned",
  restrict: "Restricted",
  suspend: "Suspended",
  ban: "Banned",
  lift: "Lifted",
  appeal_decided: "Appeal decided",
  context_viewed: "Context viewed",
  role_granted: "Role granted",
};
export const logActionLabel = (action: string): string => LOG_ACTION_LABELS[action as LogAction] ?? action;

/** Moderator actions per moderator per hour (lib/rate-limit.ts `Limit` shape): a slip of the hand, not a team's day. */
export const MODERATION_PER_USER = {
  bucket: "moderation:user",
  limit: 300,
  windowSeconds: 60 * 60,
  message: "Too many moderation actions. Please wait a little.",
} as const;
