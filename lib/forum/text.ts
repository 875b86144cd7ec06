/**
 * The forum's own text rules: which mentions a post keeps, the composer's mention picker, and a
 * list row's post. How any written text renders, and its excerpt, are lib/plain-text.ts. Pure and
 * browser-safe.
 */
import { excerpt, mentionsLinked, type Mention } from "@/lib/plain-text";
import type { ForumPost } from "./queries";

/** A mention the server validated for this post or reply: only these become links. */
export type ForumMention = Mention;

/**
 * Only the couples the text still mentions, as its readers see them linked (mentionsLinked), are
 * sent, kept and told: a mention deleted while typing, or whose '@name' was run into a longer
 * name or word, is dropped.
 */
export const mentionedIds = (text: string, mentions: readonly ForumMention[]) => [
  ...new Set(mentionsLinked(text, mentions).map((m) => m.coupleId)),
];

/** A query holds at least this many letters or digits after the '@'. */
export const MENTION_QUERY_MIN = 2;
const MENTION_QUERY_MAX = 50;
/**
 * A letter or digit first (names carry digits: 'Ada3z1w & Co'), then anything but a line break or
 * another '@': couple names hold spaces and '&', and the server matches the words it finds.
 */
const MENTION_QUERY = /^[\p{L}\p{N}][^\n\r@]*$/u;

/**
 * The mention being typed at the caret: an '@' that starts a word, then at least two letters or
 * digits up to the caret, on one line. Null when the caret is not in one (the suggestions close).
 * Only the last MENTION_QUERY_MAX characters before the caret are read, so a keystroke in a long
 * body costs the same as in a short one.
 */
export function mentionQueryAt(text: string, caret: number): { query: string; start: number } | null {
  if (caret < 0 || caret > text.length) return null;
  const from = Math.max(0, caret - MENTION_QUERY_MAX - 1);
  const at = text.slice(from, caret).lastIndexOf("@");
  if (at < 0) return null;
  const start = from + at;
  // An '@' inside a word is an e-mail address, not a mention.
  if (start > 0 && /[\p{L}\p{N}_@.]/u.test(text[start - 1]!)) return null;
  const query = text.slice(start + 1, caret);
  if (!MENTION_QUERY.test(query)) return null;
  const letters = query.match(/[\p{L}\p{N}]/gu)?.length ?? 0;
  return letters >= MENTION_QUERY_MIN ? { query, start } : null;
}

/**
 * Replaces the typed query (from its '@' to the caret) by "@Couple Name " and answers the new
 * text and where the caret goes: after the space, so typing simply goes on.
 */
export function insertMention(text: string, start: number, caret: number, coupleName: string): { text: string; caret: number } {
  const after = text.slice(caret);
  const spaced = /^\s/.test(after);
  const inserted = spaced ? `@${coupleName}` : `@${coupleName} `;
  // Either way the caret lands after the one space that follows the name.
  return { text: text.slice(0, start) + inserted + after, caret: start + inserted.length + (spaced ? 1 : 0) };
}

/**
 * A post as a list row (components/forum/PostRow.tsx) shows it, and no more: a list's first page
 * reaches the browser twice, as HTML and as the row's props, so what the row does not show (the
 * body, up to 10,000 characters, in favour of its excerpt; the photos, the mentions, the flags)
 * would only weigh on every list page.
 */
export type ListedPost = Pick<
  ForumPost,
  "id" | "title" | "topic" | "distanceBand" | "replyCount" | "reactions" | "createdAt" | "lastActivityAt"
> & {
  author: Pick<ForumPost["author"], "coupleId" | "coupleImageUrl" | "isVerified" | "signature" | "profileShown">;
  excerpt: string;
};

export const listedPost = (post: ForumPost): ListedPost => ({
  id: post.id,
  title: post.title,
  topic: post.topic,
  distanceBand: post.distanceBand,
  author: {
    coupleId: post.author.coupleId,
    coupleImageUrl: post.author.coupleImageUrl,
    isVerified: post.author.isVerified,
    signature: post.author.signature,
    profileShown: post.author.profileShown,
  },
  excerpt: excerpt(post.body),
  replyCount: post.replyCount,
  reactions: post.reactions,
  createdAt: post.createdAt,
  lastActivityAt: post.lastActivityAt,
});
