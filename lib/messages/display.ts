/**
 * How a conversation reads on screen (the messaging section of the spec): the API's shapes as
 * the browser gets them (named by the queries that answer them), and the pure rules that turn them into what is shown: the author line,
 * the inbox's last-message line, day separators and 'Seen by'. Pure and browser-safe.
 */
import type { RequestCouple, RequestItem } from "@/lib/connections/queries";
import type { SenderFacts } from "@/lib/connections/sender-facts";
import type { InboxItem } from "./inbox";
import type { ConversationDetail, MessageItem } from "./queries";
import { REACTION_KINDS, reactionCounts, type ReactionKind } from "@/lib/reactions/rules";
import { excerpt } from "@/lib/plain-text";
import { MESSAGE_TEXTS, quoteExcerpt } from "./rules";

export type Message = MessageItem;
export type MessageQuote = NonNullable<MessageItem["replyTo"]>;
export type MessageAuthor = MessageItem["author"];
export type ReadPosition = ConversationDetail["readPositions"][number];
export type Conversation = ConversationDetail;
export type InboxRow = InboxItem;
export type Approval = RequestItem["approvals"][number];
/** An incoming request as the inbox shows it: its sender with their distance band and interests in common. */
export type ConnectionRequest = Omit<RequestItem<RequestCouple>, "couple"> & { couple: RequestCouple & Partial<SenderFacts> };

/** The inbox's and 'Say hello''s words (the thread's are lib/messages/rules.ts's MESSAGE_TEXTS). */
export const INBOX_TEXTS = {
  noConversations: "Say hello to a couple from the directory",
  noRequests: "No requests right now. When a couple says hello, their note shows up here.",
  hellosWaiting: (count: number) => (count === 1 ? "See the hello waiting" : `See the ${count} hellos waiting`),
  sayHello: "Say hello",
  sendRequest: "Send request",
  requestSent: "Request sent",
  helloLater: "You can say hello later",
  declined: "You declined this hello.",
  blocked: "You blocked this couple.",
  incoming: "They said hello",
  message: "Message",
  photo: "Photo",
} as const;

/** Every link in a message opens away from the app without handing it our window, our address or our ranking. */
export const MESSAGE_LINK_REL = "nofollow noopener noreferrer ugc";

/** 'Marisol of Marisol & Thaddeus'. */
export const authorLine = (author: MessageAuthor) => `${author.firstName} of ${author.coupleName}`;

/** The inbox's last line: 'You: ...', 'Ana: ...', or 'This message was deleted'; a photo alone reads 'Photo'. */
export function lastMessageLine(message: Message | null, viewerUserId: string): string {
  if (!message) return "";
  if (message.deleted) return MESSAGE_TEXTS.deleted;
  const text = message.body?.trim() ? message.body.replace(/\s+/g, " ").trim() : INBOX_TEXTS.photo;
  const who = message.author.userId === viewerUserId ? "You" : message.author.firstName;
  return `${who}: ${text}`;
}

/**
 * How an arrived message is read out (`lib/live/arrivals.ts`): another's message as 'Ana: the
 * start of her words'; one's own and a deleted one are not read.
 */
export const heardAsMessage =
  (viewerUserId: string) =>
  (message: Message): string | null =>
    message.author.userId === viewerUserId || message.deleted
      ? null
      : `${message.author.firstName}: ${message.body?.trim() ? excerpt(message.body) : INBOX_TEXTS.photo}`;

/** 'Seen by Ana', 'Seen by Ana and Rui', 'Seen by Ana, Rui and Thaddeus'. */
export function seenByText(names: readonly string[]): string {
  if (names.length === 0) return "";
  const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  return `Seen by ${list}`;
}

/** Oldest first; ids break ties so every screen orders the same. */
const byTime = (a: Message, b: Message) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

/** One list of the messages of several pages, each once (the later copy wins: a deletion replaces the text), oldest first. */
export function mergeMessages(...pages: readonly (readonly Message[])[]): Message[] {
  const byId = new Map<string, Message>();
  for (const page of pages) for (const message of page) byId.set(message.id, message);
  return [...byId.values()].sort(byTime);
}

/**
 * An open thread as the live hook holds it: the conversation, every message loaded so far (oldest
 * first, with no message of the conversation missing between the first and the last), whether
 * older ones remain before the first.
 */
export type ThreadValue = { conversation: Conversation; messages: Message[]; hasMore: boolean };

/** A page of a thread as read: its messages oldest first; `hasMore`, whether older ones remain before them. */
export type ThreadPage = { data: readonly Message[]; hasMore: boolean };

/**
 * The thread once its newest page was read again (a poll, the page shown again, the live stream's
 * `reset` or `replaced`). The page and the messages shown are one list when they meet: the page
 * reaches back to the newest shown, or holds the whole conversation. Else the page alone is the
 * thread: shown 1-30 and a newest page of 41-70 side by side would hide 31-40 for good ('Load
 * older' asks before 1, and the live stream's 31-40 are older than the newest shown,
 * withHeardMessage), and the reader would be marked as having read past them.
 */
export function withNewestPage(shown: ThreadValue | null, conversation: Conversation, page: ThreadPage): ThreadValue {
  const newestShown = shown?.messages.at(-1);
  const oldestRead = page.data[0];
  const meets = newestShown !== undefined && (!page.hasMore || (oldestRead !== undefined && byTime(oldestRead, newestShown) <= 0));
  if (!shown || !meets) return { conversation, messages: [...page.data], hasMore: page.hasMore };
  // Older pages loaded before stay, and with them what they said of the messages before them.
  const reachesFurther = oldestRead !== undefined && byTime(shown.messages[0]!, oldestRead) < 0;
  return { conversation, messages: mergeMessages(shown.messages, page.data), hasMore: reachesFurther ? shown.hasMore : page.hasMore };
}

/**
 * The thread with a page read before the message `before` ('Load older') put above, when that
 * message is still the oldest shown; else (the thread was replaced by its newest page meanwhile,
 * withNewestPage) the thread as it is, since the page would not meet it.
 */
export const withOlderPage = (thread: ThreadValue, before: string, page: ThreadPage): ThreadValue =>
  thread.messages[0]?.id === before ? { ...thread, messages: mergeMessages(page.data, thread.messages), hasMore: page.hasMore } : thread;

/**
 * A message shown, with its quote of `message` as the server would quote it now (an edit's new
 * words, or erased: lib/messages/extras.ts `quoteOf`); one quoting another message as it is.
 */
function requoted(shown: Message, message: Message): Message {
  if (shown.replyTo?.id !== message.id) return shown;
  const excerpt = message.deleted || message.body === null ? null : quoteExcerpt(message.body);
  return {
    ...shown,
    replyTo: { ...shown.replyTo, excerpt, photo: !message.deleted && message.photoUrl !== null, deleted: message.deleted },
  };
}

/**
 * The thread with a message added, or its copy replaced: each message once, by id, whichever way it
 * came; the replies shown that quote it quote it as it is now.
 */
export const withMessage = (thread: ThreadValue, message: Message): ThreadValue => ({
  ...thread,
  messages: mergeMessages(
    thread.messages.map((shown) => requoted(shown, message)),
    [message],
  ),
});

/**
 * Whether a message the live stream tells of is a new one: after the newest shown. Messages are
 * dated in the order they are numbered (lib/messages/service.ts `sendMessage`), so any other is an
 * edit of, or a reaction to, one written before.
 */
export function isNewMessage(thread: ThreadValue, message: Message): boolean {
  const newest = thread.messages.at(-1);
  return newest === undefined || byTime(newest, message) < 0;
}

/**
 * The thread with a message the live stream tells of (written, edited or reacted to:
 * lib/messages/live.ts): the copy it holds replaced, a new one added. An older one it never loaded
 * stays out (at the top it would be the oldest shown, and 'Load older' would ask for what is before
 * it, skipping the messages between); only the replies shown that quote it follow it.
 */
export const withHeardMessage = (thread: ThreadValue, message: Message): ThreadValue =>
  thread.messages.some((shown) => shown.id === message.id) || isNewMessage(thread, message)
    ? withMessage(thread, message)
    : { ...thread, messages: thread.messages.map((shown) => requoted(shown, message)) };

/**
 * The thread with a message erased where it is shown, and the quotes of it in the replies shown
 * saying so: wherever it was loaded from ('Load older' too), and never added when it was not.
 */
export const withErased = (thread: ThreadValue, erased: Message): ThreadValue => ({
  ...thread,
  messages: thread.messages.map((shown) => (shown.id === erased.id ? erased : requoted(shown, erased))),
});

/**
 * The message the viewer's read position should move up to now, or null: the newest message
 * someone else wrote, once it is on their screen (the page visible and the thread scrolled to the
 * bottom) and their position is before it. A read position marks what its reader was shown of
 * the others' words: never one's own message, never one scrolled past unseen or in a hidden tab.
 */
export function readUpTo(
  messages: readonly Message[],
  viewerUserId: string,
  readPositionId: string | null,
  view: { visible: boolean; atBottom: boolean },
): string | null {
  if (!view.visible || !view.atBottom) return null;
  const target = messages.findLastIndex((message) => message.author.userId !== viewerUserId);
  if (target < 0) return null;
  // A position among those shown at or after it: nothing to move. One not shown is before them
  // (the server never moves a position back, so a stale guess costs nothing).
  const read = readPositionId === null ? -1 : messages.findIndex((message) => message.id === readPositionId);
  return read >= target ? null : messages[target]!.id;
}

/** The thread with one person's read position where it stands now ('Seen by' follows it). */
export const withReadPosition = (thread: ThreadValue, position: ReadPosition): ThreadValue => ({
  ...thread,
  conversation: {
    ...thread.conversation,
    readPositions: thread.conversation.readPositions.map((shown) =>
      shown.userId === position.userId ? { ...shown, lastReadMessageId: position.lastReadMessageId } : shown,
    ),
  },
});

const dayKey = (date: Date) => `${date.getFullYear()}-${date.getMonth()}-${date.getDate()}`;

// Formatters made once: `toLocaleDateString` with options builds a new one at every call (a tenth
// of a conversation page's server time went there).
const dayOfThisYear = new Intl.DateTimeFormat("en-GB", { weekday: "long", day: "numeric", month: "long" });
const dayOfAnotherYear = new Intl.DateTimeFormat("en-GB", { weekday: "long", day: "numeric", month: "long", year: "numeric" });
const clockTime = new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit" });

/** A day separator's words: 'Today', 'Yesterday', 'Monday 24 November' (with the year, 'Sunday, 23 November 2025') when it is not this one. */
export function dayLabel(date: Date, now: Date): string {
  if (dayKey(date) === dayKey(now)) return "Today";
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (dayKey(date) === dayKey(yesterday)) return "Yesterday";
  return (date.getFullYear() === now.getFullYear() ? dayOfThisYear : dayOfAnotherYear).format(date);
}

export type ThreadItem = { kind: "day"; key: string; label: string } | { kind: "message"; message: Message; seenBy: string[] };

/**
 * The thread as shown: a separator before each new day, and under the latest message each other
 * person has read, their first name (never the viewer's own, never under the reader's own message).
 */
export function threadItems(
  messages: readonly Message[],
  readPositions: readonly ReadPosition[],
  viewerUserId: string,
  now: Date,
): ThreadItem[] {
  const items: ThreadItem[] = [];
  let lastDay = "";
  for (const message of messages) {
    const date = new Date(message.createdAt);
    const day = dayKey(date);
    if (day !== lastDay) {
      items.push({ kind: "day", key: `day-${day}`, label: dayLabel(date, now) });
      lastDay = day;
    }
    const seenBy = readPositions
      .filter((p) => p.userId !== viewerUserId && p.userId !== message.author.userId && p.lastReadMessageId === message.id)
      .map((p) => p.firstName);
    items.push({ kind: "message", message, seenBy });
  }
  return items;
}

/** '3:05 PM' style time of a message, in the reader's own clock. */
export const messageTime = (at: string) => clockTime.format(new Date(at));

/** 'Accepted by Ana', 'Waiting for Rui': who of the receiving couple has answered a request that needs both. */
export function approvalLine(approvals: readonly Approval[]): string | null {
  const accepted = approvals.filter((a) => a.accepted).map((a) => a.firstName);
  const waiting = approvals.filter((a) => !a.accepted).map((a) => a.firstName);
  if (accepted.length === 0 || waiting.length === 0) return null;
  return `Accepted by ${accepted.join(" and ")}, waiting for ${waiting.join(" and ")}`;
}

/** The inbox, its requests, the badge and an open thread are read again this often while shown, until the live stream feeds them. */
export const MESSAGES_POLL_MS = 10_000;
/** An open thread: a conversation is read as it is written, so sooner than the bell. */
export const THREAD_POLL_MS = 4_000;

/** What a quote says of the message it names: its words' start, 'Photo', or that it was deleted. */
export const quoteText = (quote: MessageQuote) => (quote.deleted ? MESSAGE_TEXTS.deleted : (quote.excerpt ?? (quote.photo ? "Photo" : "")));

/** A message's reactions as the shared reactions show them: every kind's count, the viewer's own, who reacted. */
export function reactionsValue(reactions: Message["reactions"]) {
  const reactedBy = Object.fromEntries(REACTION_KINDS.map((kind) => [kind, [] as string[]])) as Record<ReactionKind, string[]>;
  for (const reaction of reactions) reactedBy[reaction.kind] = reaction.names;
  return {
    counts: reactionCounts(reactions),
    mine: reactions.filter((reaction) => reaction.mine).map((reaction) => reaction.kind),
    reactedBy,
  };
}
