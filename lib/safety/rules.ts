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

/**
 * Blocks and unblocks per person per hour, together (`Limit` shape as above): each one ends the two
 * couples' conversation and plans and tells the other couple's screens, so a loop toggling a block
 * would flood them; 30 is far beyond a person blocking or changing their mind.
 */
export const BLOCKS_PER_USER = { bucket: "block:user", limit: 30, windowSeconds: 60 * 60 } as const;

/**
 * The moderation queue a page at a time, oldest first: one row per decision (a target's open
 * reports against one couple, lib/safety/reports-against.ts `decidedWith`), the open appeals, and
 * the couples with held hellos (one row per sending couple).
 */
export const REPORT_QUEUE_PAGE_SIZE = 20;
export const APPEALS_PAGE_SIZE = 20;
export const HELD_QUEUE_PAGE_SIZE = 20;
/** The settings' list of the couples a couple blocked, a page at a time (lib/safety/block-list.ts). */
export const BLOCK_LIST_PAGE_SIZE = 20;
/** Of a queue row's reports, the notes it shows (the oldest first): enough to judge, never the whole pile. */
export const REPORT_NOTES_SHOWN = 5;

/** A queue row's reasons, the most given first (ties in the order the report dialog offers them, `order`). */
export function reasonsByCount<R extends string>(counts: readonly { reason: R; count: number }[], order: readonly R[]) {
  return [...counts].sort((a, b) => b.count - a.count || order.indexOf(a.reason) - order.indexOf(b.reason));
}

/**
 * A queue row's counts are exact up to this many and read "100+" beyond: a product decision. What
 * a moderator decides turns on small numbers (REPORT_HIDE_THRESHOLD couples hide content, the spam
 * rule restricts at AUTO_RESTRICT_COUPLES), and a hundred reports is a pile-on however many more
 * follow; no target reported in the ordinary way comes near it, so those rows stay exact. It bounds
 * what a row reads however large a burst of reports grows: CAP + 1 index entries, never all of
 * them, so the queue's page costs at a network of millions what it costs at a few thousand couples.
 * The held hellos' rows count their couple's hellos the same way, and a couple's record the reports
 * against it (`upToCap`).
 */
export const QUEUE_COUNT_CAP = 100;

/**
 * A count of a capped read (at most QUEUE_COUNT_CAP + 1 rows, a LIMITed read: CAP + 1 means more)
 * as a row keeps it: exact up to the cap; past it, the cap and `capped`. The queue's rows, the held
 * hellos' and a couple's record all count this way; each other count of the same read (its
 * couples, a reason's) is at most its total, so its `count` is the figure to show.
 */
export function upToCap(read: number): { count: number; capped: boolean } {
  return { count: Math.min(read, QUEUE_COUNT_CAP), capped: read > QUEUE_COUNT_CAP };
}

/**
 * A count as a queue row shows it: exact ('42'), or at least the cap's figure read so far when the
 * row was capped ('100+'; '51+' of the couples among the first reports read).
 */
export const countText = (count: number, capped: boolean): string => `${upToCap(count).count.toLocaleString("en-US")}${capped ? "+" : ""}`;

/**
 * Who reported a queue row: one report as it always read ('reported by Lucia'); several counted,
 * with the first reporter ('100+ reports by 51+ couples' past the cap, `QUEUE_COUNT_CAP`).
 */
export function reportedByText({
  reports,
  couples,
  capped = false,
  firstReporter,
}: {
  reports: number;
  couples: number;
  capped?: boolean;
  firstReporter: string;
}): string {
  if (reports === 1) return `reported by ${firstReporter}`;
  return `${countText(reports, capped)} reports by ${countText(couples, capped)} ${couples === 1 && !capped ? "couple" : "couples"}, first by ${firstReporter}`;
}

/** What a moderator does with an open report (and every other open report of the same target). */
export const MODERATION_ACTIONS = ["dismiss", "remove"] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];
/**
 * A reported couple is never 'removed' (that hid it with no notice, no appeal and nothing to lift):
 * a moderator warns, restricts, suspends or bans it, naming the guideline, and the couple is told.
 */
export const COUPLE_NOT_REMOVED =
  "A couple is not removed: warn, restrict, suspend or ban it from its page, naming the guideline it broke.";

/** A hello is not removed either (the couple it went to declines it): its couple is acted on, as above. */
export const HELLO_NOT_REMOVED =
  "A hello is not removed: the couple it went to declines it. Warn, restrict, suspend or ban the couple that sent it from its page.";

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
/** The kinds that take a couple out of the network until lifted: it is 'suspended', signed out, hidden. */
export const SUSPENDING_KINDS = ["suspend", "ban"] as const satisfies readonly SanctionKind[];
export const suspends = (kind: string): boolean => (SUSPENDING_KINDS as readonly string[]).includes(kind);
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
  "role_revoked",
  "held_delivered",
  "held_dropped",
  "photo_approved",
  "photo_refused",
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
  role_revoked: "Role revoked",
  held_delivered: "Held hello delivered",
  held_dropped: "Held hello dropped",
  photo_approved: "Photo verified",
  photo_refused: "Selfie refused",
};
export const logActionLabel = (action: string): string => LOG_ACTION_LABELS[action as LogAction] ?? action;

/** Moderator actions per moderator per hour (lib/rate-limit.ts `Limit` shape): a slip of the hand, not a team's day. */
export const MODERATION_PER_USER = {
  bucket: "moderation:user",
  limit: 300,
  windowSeconds: 60 * 60,
  message: "Too many moderation actions. Please wait a little.",
} as const;

/** A standing action as the couple sees it: what, why, until when (null: until lifted). */
export type StandingSanction = { id: string; kind: SanctionKind; reason: string; endsAt: string | null; createdAt: string };

const DAY_MS = 24 * 60 * 60 * 1000;
/** When a restriction for `days` made at `from` ends. */
export const restrictionEnd = (from: Date, days: number): Date => new Date(from.getTime() + days * DAY_MS);

/** A date as every moderation notice writes it (UTC, so the server and the browser agree). */
export const noticeDate = (at: string | Date): string =>
  new Date(at).toLocaleString("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "UTC",
  }) + " UTC";

/** Where every moderation notice points: what moderators do and how to appeal. */
export const SAFETY_PAGE = "/safety";

/** What a restricted couple is told wherever a button to write would have been (and in the 403). */
export function restrictedText(restriction: { reason: string; endsAt: string | null }): string {
  const until = restriction.endsAt ? `until ${noticeDate(restriction.endsAt)}` : "until a moderator has looked at the reports about it";
  return `Your couple is restricted ${until} (${guidelineLabel(restriction.reason)}): you can read, but not say hello, send messages, post or reply.`;
}

/** What a partner of a suspended or banned couple is told when signing in. */
export const SUSPENDED_SIGN_IN =
  "Your couple's account is suspended by our moderators. We sent you an e-mail saying why and how to appeal.";
export const BANNED_SIGN_IN =
  "Your couple's account was closed by our moderators for breaking the community guidelines. We sent you an e-mail saying why and how to appeal.";
/** Registration with an address of a banned couple's partner. */
export const BANNED_EMAIL = "This e-mail address cannot be used to register.";
/** An e-mail change (settings › security) to an address of a banned couple's partner. */
export const BANNED_EMAIL_CHANGE = "This e-mail address cannot be used for an account.";

/** What the couple's notice and e-mail say for each action: title and message (the appeal link is the notice's). */
export function sanctionNotice(sanction: { kind: SanctionKind; reason: string; endsAt: string | null }): {
  title: string;
  message: string;
} {
  const why = guidelineLabel(sanction.reason);
  const appeal = `You can appeal once, from ${SAFETY_PAGE}.`;
  switch (sanction.kind) {
    case "warn":
      return {
        title: "A warning from our moderators",
        message: `Our moderators warn your couple for breaking the guideline '${why}'. ${appeal}`,
      };
    case "restrict":
      return { title: "Your couple is restricted", message: `${restrictedText(sanction)} ${appeal}` };
    case "suspend":
      return {
        title: "Your couple is suspended",
        message: `Our moderators suspended your couple for breaking the guideline '${why}': you are signed out and other couples no longer see you, until a moderator lifts it. ${appeal}`,
      };
    case "ban":
      return {
        title: "Your couple's account is closed",
        message: `Our moderators closed your couple's account for good for breaking the guideline '${why}'. Your e-mail addresses cannot register again. ${appeal}`,
      };
  }
}

/** The couple's notice when an action is lifted. */
export const liftedNotice = (kind: SanctionKind): { title: string; message: string } => ({
  title:
    kind === "warn"
      ? "A warning was withdrawn"
      : `Your couple is no longer ${kind === "restrict" ? "restricted" : kind === "ban" ? "banned" : "suspended"}`,
  message: "Our moderators lifted what they had done. Thank you for your patience.",
});

/** The couple's notice when a moderator refused its appeal: the action stands. */
export const appealRefusedNotice = (kind: SanctionKind): { title: string; message: string } => ({
  title: "Your appeal was not granted",
  message: `A moderator who did not take the action read your appeal; the ${kind === "warn" ? "warning" : kind === "restrict" ? "restriction" : kind === "ban" ? "ban" : "suspension"} stands.`,
});
