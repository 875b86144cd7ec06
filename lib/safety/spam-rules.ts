/**
 * Spam that stops itself, and trust that grows (Discourse's trust levels, applied to couples):
 * every threshold in one place, pure and browser-safe, with a unit test at each edge
 * (tests/unit/spam-rules.test.ts).
 */

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** The same hello note to more than this many couples within HELD_NOTE_WINDOW_HOURS: the next requests are held. */
export const HELD_NOTE_COUPLES = 5;
export const HELD_NOTE_WINDOW_HOURS = 24;

/** Reports of messages or requests by this many different couples within AUTO_RESTRICT_WINDOW_DAYS restrict the couple until a moderator decides. */
export const AUTO_RESTRICT_COUPLES = 3;
export const AUTO_RESTRICT_WINDOW_DAYS = 7;

/**
 * Why the rule's restriction was lifted (the log's note, the couple's notice): a moderator dismissed
 * reports that made it, and those left standing no longer reach AUTO_RESTRICT_COUPLES.
 */
export const AUTO_RESTRICT_LIFTED = "The reports that restricted you were looked at and dismissed.";

/** A couple younger than this is new: it sends LIMITED_REQUESTS_PER_DAY. */
export const NEW_COUPLE_DAYS = 7;
/** A couple whose requests are mostly left unanswered (at least this many sent in the window, under this share accepted) is limited too. */
export const LOW_ACCEPTANCE_MIN_SENT = 10;
export const LOW_ACCEPTANCE_RATE = 0.1;
export const ACCEPTANCE_WINDOW_DAYS = 30;
export const LIMITED_REQUESTS_PER_DAY = 3;
export const TRUSTED_REQUESTS_PER_DAY = 10;

/** What the sender of a held request is told (no more: the check must not be learnt). */
export const HELD_MESSAGE = "Your requests are being reviewed";

/** What a moderator does with a held hello: deliver it to the asked couple as a normal request, or drop it. */
export const HELD_DECISIONS = ["deliver", "drop"] as const;
export type HeldDecision = (typeof HELD_DECISIONS)[number];
export const HELD_NOT_DELIVERABLE =
  "This hello can no longer be delivered: the couples are talking, a request stands, one blocked the other, or a couple is gone. Drop it.";

/** A note as the held-request rule compares it: case, spaces and digits do not make it different. */
export const normalizeNote = (note: string): string => note.toLowerCase().replace(/\d+/g, "").replace(/\s+/g, "").trim();

/** The rule on the requests with the same note the couple sent in the window, to how many different couples. */
export const holdsNextRequest = (couplesWithSameNote: number): boolean => couplesWithSameNote >= HELD_NOTE_COUPLES;

/** The rule on the different couples that reported the couple's messages or requests in the window. */
export const restrictsByReports = (reportingCouples: number): boolean => reportingCouples >= AUTO_RESTRICT_COUPLES;

export type TrustFacts = { createdAt: Date; sent: number; accepted: number };
export type TrustLevel = "new" | "limited" | "trusted";

/** The couple's trust level: new by age, limited while its requests are mostly left unanswered, trusted otherwise. */
export function trustLevel(facts: TrustFacts, now: Date = new Date()): TrustLevel {
  if (now.getTime() - facts.createdAt.getTime() < NEW_COUPLE_DAYS * DAY_MS) return "new";
  if (facts.sent >= LOW_ACCEPTANCE_MIN_SENT && facts.accepted < facts.sent * LOW_ACCEPTANCE_RATE) return "limited";
  return "trusted";
}

/**
 * A couple below trusted (new, or limited): its links in a conversation's first this-many messages
 * are shown but not clickable, the window a stranger's first words live in. Hello notes are plain
 * text for every couple (lib/connections: a note's words are never linked).
 */
export const PLAIN_LINK_FIRST_MESSAGES = 5;
/** Whether a message's links are plain text: by its couple's trust level now, and its place in the conversation (1: the first). */
export const linksArePlain = (level: TrustLevel, placeInConversation: number): boolean =>
  level !== "trusted" && placeInConversation <= PLAIN_LINK_FIRST_MESSAGES;

export const requestsPerDay = (level: TrustLevel): number => (level === "trusted" ? TRUSTED_REQUESTS_PER_DAY : LIMITED_REQUESTS_PER_DAY);

/** The windows as dates before `now`, for the queries. */
export const heldNoteSince = (now: Date): Date => new Date(now.getTime() - HELD_NOTE_WINDOW_HOURS * HOUR_MS);
export const autoRestrictSince = (now: Date): Date => new Date(now.getTime() - AUTO_RESTRICT_WINDOW_DAYS * DAY_MS);
export const acceptanceSince = (now: Date): Date => new Date(now.getTime() - ACCEPTANCE_WINDOW_DAYS * DAY_MS);
