/**
 * Reports and moderation (the forum's API section: `POST /api/reports`, the moderation queue):
 * what may be reported and why, when reports hide content, what a moderator decides. Pure and
 * browser-safe: the report dialog, the moderation queue and the server share them.
 */

export const REPORT_TARGET_TYPES = ["post", "reply", "couple"] as const;
export type ReportTargetType = (typeof REPORT_TARGET_TYPES)[number];

export const REPORT_REASONS = [
  { value: "spam", label: "Spam" },
  { value: "harassment", label: "Harassment" },
  { value: "inappropriate", label: "Inappropriate" },
  { value: "other", label: "Other" },
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number]["value"];
export const REPORT_REASON_VALUES = REPORT_REASONS.map((reason) => reason.value) as [ReportReason, ...ReportReason[]];

export const REPORT_NOTE_MAX = 1_000;

/** A report as the reporter sends it (parsed by `reportSchema`, lib/forum/schemas.ts). */
export type ReportInput = { targetType: ReportTargetType; targetId: string; reason: ReportReason; note?: string | null };

/** Reports from this many different couples hide the content from all but its authors until reviewed. */
export const REPORT_HIDE_THRESHOLD = 3;
export const isHiddenByReports = (reportingCouples: number): boolean => reportingCouples >= REPORT_HIDE_THRESHOLD;

/** Reports per person per hour, in the shape of lib/rate-limit.ts's `Limit` (the bucket keeps the name it was first counted under). */
export const REPORTS_PER_USER = { bucket: "forum-report:user", limit: 20, windowSeconds: 60 * 60 } as const;

/** What a moderator does with an open report (and every other open report of the same target). */
export const MODERATION_ACTIONS = ["dismiss", "remove"] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];
