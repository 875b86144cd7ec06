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
