/**
 * Messages between two couples: sizes, limits and words. Pure and browser-safe: the thread, the
 * inbox and the server share them.
 */

export const BODY_MAX = 4_000;
/** A thread's page: the newest 30 by default, at most 100 (older ones load when scrolling up). */
export const THREAD_PAGE_DEFAULT = 30;
export const THREAD_PAGE_MAX = 100;
/**
 * The newest messages a conversation's page is first painted with: more than the tallest screen
 * holds, in half the bytes of a whole page. The thread's live feed loads its whole newest page
 * as the event stream connects, and older ones load as the reader scrolls up.
 */
export const THREAD_FIRST_PAINT = 15;
export const INBOX_PAGE = 20;
/**
 * A conversation's unread count is counted up to this many messages: the badge shows '99+'
 * beyond 99, and no count reads more rows than this per conversation.
 */
export const UNREAD_COUNT_CAP = 100;

/** Its author may change a message's words this long after sending it ('edited' shows after). */
export const EDIT_WINDOW_MS = 15 * 60 * 1000;
/** A quoted message shows this many characters of its words above the reply. */
export const QUOTE_EXCERPT_MAX = 140;

/**
 * A quoted message's words as shown above a reply: the first QUOTE_EXCERPT_MAX characters, counted
 * as Postgres's `left` counts them (code points). The server quotes with it (lib/messages/extras.ts
 * `quoteOf`), and so does an open thread when the quoted message is edited (./display.ts).
 */
export const quoteExcerpt = (body: string) => Array.from(body).slice(0, QUOTE_EXCERPT_MAX).join("");

/** Whether a message sent at `createdAt` may still be edited at `now`. */
export const editable = (createdAt: Date | string, now: Date = new Date()) =>
  now.getTime() - new Date(createdAt).getTime() <= EDIT_WINDOW_MS;

/** Per person, in the shape of lib/rate-limit.ts's `Limit`: a lively chat, not a script. */
const SENDING_TOO_QUICKLY = "You are sending messages too quickly. Please wait a moment.";
export const MESSAGE_LIMITS = {
  perMinute: { bucket: "message:minute", limit: 30, windowSeconds: 60, message: SENDING_TOO_QUICKLY },
  perDay: { bucket: "message:day", limit: 500, windowSeconds: 24 * 60 * 60, message: SENDING_TOO_QUICKLY },
  photosPerHour: { bucket: "message-photo:user", limit: 60, windowSeconds: 60 * 60, message: SENDING_TOO_QUICKLY },
  /** Edits and reactions together: taps, not a script. */
  changesPerMinute: { bucket: "message-change:minute", limit: 60, windowSeconds: 60, message: SENDING_TOO_QUICKLY },
  /** '... is typing': the composer says so at most every 3 s (./typing-view.ts), 20 a minute; room for two tabs. */
  typingPerMinute: { bucket: "typing:minute", limit: 40, windowSeconds: 60, message: SENDING_TOO_QUICKLY },
  /**
   * Read positions (components/messages/Thread.tsx): each visible tab on a thread marks once a
   * message the others send (a hidden one once when shown), and the three others send at most 90 a
   * minute together (3 x perMinute): 600 holds six visible tabs at that pace, a lively chat's
   * dozens; a loop gets ten a second.
   */
  readsPerMinute: { bucket: "message-read:minute", limit: 600, windowSeconds: 60 },
  /** 'Mute' and its undo, together: a few flips a conversation, not a loop. */
  mutesPerHour: { bucket: "conversation-mute:user", limit: 120, windowSeconds: 60 * 60 },
} as const;

/** Exact UI copy the pages and the API share. */
export const MESSAGE_TEXTS = {
  deleted: "This message was deleted",
  ended: "This conversation has ended.",
  deletedMember: "Deleted member",
  deletedCouple: "Deleted couple",
  notFound: "This conversation does not exist or is not yours.",
  messageNotFound: "This message does not exist or is not yours.",
  notAuthor: "Only its author can delete a message.",
  notEditor: "Only its author can edit a message.",
  editClosed: "A message can be edited for 15 minutes after it is sent.",
  editDeleted: "A deleted message cannot be edited.",
  replyToInvalid: "replyToId must be a message of this conversation",
  clientKeyInvalid: "clientKey must be a UUID",
  replyGone: "The message you were replying to has been deleted. Your message was not sent: send it again without the reply.",
  reactionInvalid: "reaction must be one of heart, laugh, wow, clap, hug",
  bodyRequired: "Please write a message",
  bodyTooLong: `Your message must be no more than ${BODY_MAX.toLocaleString("en-US")} characters`,
  bodyNotAllowed: "Your message contains characters that are not allowed",
  photoInvalid: "photoUrl must be a photo uploaded with POST /api/messages/photos",
  beforeInvalid: "before must be a message id",
  upToRequired: "upTo must be a message id",
  upToOwn: "upTo must be a message of the others",
  idInvalid: "This conversation does not exist or is not yours.",
  messageIdInvalid: "This message does not exist or is not yours.",
  cursorInvalid: "This list position is not valid. Please reload the conversations.",
} as const;
