/**
 * Connection requests (consent first): a couple says hello with a note, the receiving couple's
 * partners accept or decline. Pure and browser-safe: the dialog, the inbox and the server share
 * these values and rules.
 */

import { requestsPerDay, TRUSTED_REQUESTS_PER_DAY, type TrustLevel } from "@/lib/safety/spam-rules";

/** What a couple's card and profile know of the viewer's connection with them. */
export type ConnectionState =
  | { state: "none" }
  /** The viewer's couple asked; a decline still reads so until the request expires (declining is silent). */
  | { state: "requested" }
  /** They asked the viewer's couple: the answer is in the inbox's requests. */
  | { state: "incoming" }
  /** The pair's last hello, no longer open, was sent under ASK_AGAIN_DAYS ago: neither couple may say hello yet. */
  | { state: "later" }
  | { state: "connected"; conversationId: string };

export const NOTE_MAX = 500;
const DAY_MS = 24 * 60 * 60 * 1000;
/** An unanswered (or silently declined) request expires this long after it was sent. */
export const REQUEST_EXPIRY_DAYS = 30;
/** The same pair of couples may be asked again this long after the last request. */
export const ASK_AGAIN_DAYS = 90;
/**
 * Requests a couple may send a day, refused attempts counted too, in the shape of lib/rate-limit.ts's
 * `Limit`: by its trust level (lib/safety/spam-rules.ts: new and mostly-unanswered couples send fewer).
 */
export const REQUESTS_PER_DAY = {
  bucket: "connection-request:couple",
  limit: TRUSTED_REQUESTS_PER_DAY,
  windowSeconds: 24 * 60 * 60,
} as const;

export const dailyRequestLimit = (level: TrustLevel) => ({ ...REQUESTS_PER_DAY, limit: requestsPerDay(level) });

/** What a couple at its limit is told: its limit, never its score. */
export const rateLimitedText = (level: TrustLevel): string =>
  level === "trusted"
    ? "You have sent as many requests as you can for today. Please try again tomorrow."
    : `For now your couple can send ${requestsPerDay(level)} requests a day; more as your couple settles in and couples accept your requests. Please try again tomorrow.`;

export const expiresAfter = (sentAt: Date): Date => new Date(sentAt.getTime() + REQUEST_EXPIRY_DAYS * DAY_MS);

/**
 * The earliest a request still open now was sent (every request expires REQUEST_EXPIRY_DAYS after
 * it was sent): a read of open requests bounds its index range by it, as expired ones stay
 * 'pending' in the index for good.
 */
export const openSince = (now: Date): Date => new Date(now.getTime() - REQUEST_EXPIRY_DAYS * DAY_MS);

export type RequestStatus = "pending" | "accepted" | "declined";
export type RequestFacts = { status: RequestStatus; createdAt: Date; expiresAt: Date };

/** Open: waiting for an answer and not yet expired. */
export const isOpen = (request: RequestFacts, now: Date = new Date()): boolean => request.status === "pending" && request.expiresAt > now;

/**
 * Whether the pair's latest request stops a new one: an open one either way, or any sent within
 * ASK_AGAIN_DAYS (after a decline or an expiry, the couple waits 90 days from that request). The
 * accepted request of a conversation a block ended does not: once the block is lifted, either
 * couple may say hello again at once, and an acceptance reopens that conversation.
 */
export const blocksNewRequest = (latest: RequestFacts | null, conversationEndedByBlock: boolean, now: Date = new Date()): boolean =>
  latest !== null &&
  !(latest.status === "accepted" && conversationEndedByBlock) &&
  (isOpen(latest, now) || now.getTime() - latest.createdAt.getTime() < ASK_AGAIN_DAYS * DAY_MS);

/** A request with the couple it asked: null once that couple went with its last partner's account (the hello stays its sender's). */
export type SentFacts = RequestFacts & { toCoupleId: string | null };

/**
 * What the sender sees: 'pending' until accepted or expired. A decline reads as pending until it
 * expires, so a sender can never tell a decline from silence (spec: declining is silent). A hello
 * to a couple since deleted is 'closed' (nobody is left to answer it), declined or not; accepted,
 * it stays so, as its conversation stays, ended.
 */
export function senderStatus(request: SentFacts, now: Date = new Date()): "pending" | "accepted" | "expired" | "closed" {
  if (request.status === "accepted") return "accepted";
  if (request.toCoupleId === null) return "closed";
  return request.expiresAt > now ? "pending" : "expired";
}

/**
 * A request as one person sees it: its sender's couple as `senderStatus` says (a decline is never
 * told), the receiving couple as it is ('declined' once they declined; 'expired' once unanswered
 * too long). Every place a request is shown to someone (lists, the live stream, the export) reads it
 * through this or `senderStatus`.
 */
export function viewerStatus(
  request: SentFacts,
  viewerSent: boolean,
  now: Date = new Date(),
): "pending" | "accepted" | "declined" | "expired" | "closed" {
  if (viewerSent) return senderStatus(request, now);
  return request.status === "pending" && request.expiresAt <= now ? "expired" : request.status;
}

/** The pair's latest request, either way, as one couple reads it (`viewerSent`: theirs). */
export type LatestRequest = SentFacts & { viewerSent: boolean };

/**
 * Where the viewer's couple stands with another (a card's and a profile's 'Say hello', 'Request
 * sent', 'They said hello', 'Message'), from the pair's conversation and latest request either way,
 * by the send's own rule (`blocksNewRequest`): 'Say hello' exactly where a hello may be sent. An
 * open conversation is 'Message'; a request in the way is the viewer's own while it reads as
 * pending to them (a decline is never told), theirs while pending, else 'later'. The couples shown
 * stand together, so an ended conversation was ended by a block since lifted.
 */
export function connectionStateOf(
  conversation: { id: string; ended: boolean } | null,
  latest: LatestRequest | null,
  now: Date = new Date(),
): ConnectionState {
  if (conversation && !conversation.ended) return { state: "connected", conversationId: conversation.id };
  if (!latest || !blocksNewRequest(latest, conversation !== null, now)) return { state: "none" };
  if (viewerStatus(latest, latest.viewerSent, now) === "pending") return { state: latest.viewerSent ? "requested" : "incoming" };
  return { state: "later" };
}

export type Approval = { userId: string; accepted: boolean };

/**
 * The request's answer after one partner's approval: accepted when one partner's acceptance
 * suffices (the couple's default) or when every partner accepted ('Both of us approve new
 * connections'); otherwise waiting for the partner who has not. A couple of one partner needs one.
 */
export function approvalOutcome(
  bothApprove: boolean,
  partnerIds: readonly string[],
  approvals: readonly Approval[],
): { status: "accepted" } | { status: "pending"; waitingFor: string } {
  if (!bothApprove) return { status: "accepted" };
  const accepted = new Set(approvals.filter((approval) => approval.accepted).map((approval) => approval.userId));
  const waiting = partnerIds.find((id) => !accepted.has(id));
  return waiting === undefined ? { status: "accepted" } : { status: "pending", waitingFor: waiting };
}

/** The API's words (the notifications': lib/notifications/types). */
export const CONNECTION_TEXTS = {
  notFound: "This couple is not available.",
  requestNotFound: "This request does not exist or is no longer open.",
  alreadyRequested: "You cannot send this couple a request right now.",
  alreadyConnected: "You are already talking with this couple.",
  rateLimited: "You have sent as many requests as you can for today. Please try again tomorrow.",
  noteRequired: "Please write a short note",
  noteTooLong: `Your note must be no more than ${NOTE_MAX} characters`,
  noteNotAllowed: "Your note contains characters that are not allowed",
  coupleIdInvalid: "coupleId must be a couple's id",
  boxInvalid: "box must be incoming or outgoing",
  cursorInvalid: "This list position is not valid. Please reload the requests.",
  idInvalid: "This request does not exist or is no longer open.",
} as const;
