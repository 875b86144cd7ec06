/**
 * Plain text of posts and replies, turned into data React renders: never HTML, so no input can
 * become markup. Also the composer's mention picker rules and the list rows' excerpt. Pure and
 * browser-safe.
 */
import { trimEndWhere } from "@/lib/trim-end";
import type { ForumPost } from "./queries";

export type Segment =
  { kind: "text"; text: string } | { kind: "link"; text: string; href: string } | { kind: "mention"; coupleId: string; label: string };
/** A line is a run of segments; a paragraph is lines separated by single line breaks. */
export type Line = Segment[];
export type Paragraph = Line[];

/** A mention the server validated for this post or reply: only these become links. */
export type ForumMention = { coupleId: string; name: string };

/** Only the couples still named in the text are sent: a mention deleted while typing is dropped. */
export const mentionedIds = (text: string, mentions: readonly ForumMention[]) => [
  ...new Set(mentions.filter((m) => text.toLowerCase().includes(`@${m.name.toLowerCase()}`)).map((m) => m.coupleId)),
];

/** Every link opens away from the app without handing it our window or our ranking. */
export const LINK_REL = "noopener nofollow ugc";

// http(s) only: javascript:, data: and every other scheme stay plain text. A link ends at white
// space or at a character that cannot start one in plain prose (<, >, ").
const LINK = /\bhttps?:\/\/[^\s<>"]+/giu;

/** Whether a text may hold a link at all (every link starts with its scheme): a cheap test before parsing it. */
export const mayHoldLink = (text: string): boolean => /https?:\/\//i.test(text);
/** Punctuation that ends a sentence rather than a URL. */
const TRAILING = new Set(".,;:!?'’”)]}*_");
const CLOSERS: Record<string, string> = { ")": "(", "]": "[", "}": "{" };
const BRACKETS = new Set("()[]{}");

/**
 * Drops trailing punctuation, except a closing bracket the URL itself opened (Wikipedia's "(film)").
 * One pass from the end with the brackets counted once: linear in the candidate's length.
 */
function trimLink(candidate: string): string {
  const brackets = new Map<string, number>();
  for (const char of candidate) if (BRACKETS.has(char)) brackets.set(char, (brackets.get(char) ?? 0) + 1);
  let end = candidate.length;
  while (end > 0 && TRAILING.has(candidate[end - 1]!)) {
    const last = candidate[end - 1]!;
    const opener = CLOSERS[last];
    // Balanced: the bracket belongs to the URL; earlier trailing marks were already removed.
    if (opener && (brackets.get(opener) ?? 0) >= brackets.get(last)!) break;
    if (opener) brackets.set(last, brackets.get(last)! - 1);
    end -= 1;
  }
  return candidate.slice(0, end);
}

/** The URL an address points to, or null when it is not a well-formed http(s) URL with a host. */
function safeHref(text: string): string | null {
  try {
    const url = new URL(text);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "" ? url.href : null;
  } catch {
    return null;
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * "@Name" for each known mention, longest name first so "@Marisol & Thaddeus" wins over "@Marisol". The
 * '@' starts a word (not an e-mail address) and the name ends one (case ignored).
 */
function mentionPattern(mentions: readonly ForumMention[]): RegExp | null {
  const names = [...new Set(mentions.map((m) => m.name).filter((name) => name.trim() !== ""))].sort((a, b) => b.length - a.length);
  if (names.length === 0) return null;
  return new RegExp(`(?<![\\p{L}\\p{N}_@])@(${names.map(escapeRegExp).join("|")})(?![\\p{L}\\p{N}_])`, "giu");
}

function mentionSegments(text: string, pattern: RegExp | null, byName: Map<string, ForumMention>): Segment[] {
  if (!pattern) return [{ kind: "text", text }];
  const segments: Segment[] = [];
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    const mention = byName.get(match[1]!.toLowerCase());
    // Case-insensitive matching may fold a letter differently from toLowerCase: then it stays text.
    if (!mention) continue;
    if (match.index > at) segments.push({ kind: "text", text: text.slice(at, match.index) });
    segments.push({ kind: "mention", coupleId: mention.coupleId, label: `@${mention.name}` });
    at = match.index + match[0].length;
  }
  if (at < text.length) segments.push({ kind: "text", text: text.slice(at) });
  return segments;
}

/** One line: links first (a mention inside a URL stays part of it), mentions in the text between. */
function lineSegments(line: string, pattern: RegExp | null, byName: Map<string, ForumMention>): Line {
  const segments: Segment[] = [];
  let at = 0;
  for (const match of line.matchAll(LINK)) {
    const text = trimLink(match[0]);
    const href = safeHref(text);
    if (!href) continue;
    if (match.index > at) segments.push(...mentionSegments(line.slice(at, match.index), pattern, byName));
    segments.push({ kind: "link", text, href });
    at = match.index + text.length;
  }
  if (at < line.length) segments.push(...mentionSegments(line.slice(at), pattern, byName));
  return segments;
}

/**
 * A body as paragraphs (split at blank lines) of lines (split at line breaks) of segments.
 * Mentions are recognised only for the couples given, so text that merely looks like a
 * mention stays text; the first couple listed under a name wins.
 */
export function renderBody(body: string, mentions: readonly ForumMention[] = []): Paragraph[] {
  const byName = new Map<string, ForumMention>();
  for (const mention of mentions) if (!byName.has(mention.name.toLowerCase())) byName.set(mention.name.toLowerCase(), mention);
  const pattern = mentionPattern(mentions);
  return (
    body
      .replace(/\r\n?/g, "\n")
      .split(/\n[^\S\n]*\n\s*/)
      // trimEnd, not /\s+$/: that pattern retries from every space of a long run (quadratic).
      .map((paragraph) => paragraph.replace(/^\s*\n/, "").trimEnd())
      .filter((paragraph) => paragraph.trim() !== "")
      .map((paragraph) => paragraph.split("\n").map((line) => lineSegments(line, pattern, byName)))
  );
}

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

export const EXCERPT_LENGTH = 200;
/** White space and punctuation an excerpt does not end on before its "…". */
const SENTENCE_END = /[\s.,;:!?-]/u;

/** The start of a body for a list row: white space collapsed, cut at a word boundary with "…". */
export function excerpt(body: string, length = EXCERPT_LENGTH): string {
  // Only the head of a long body is read (a list shapes 20 bodies of up to 10,000 characters):
  // collapsing white space can only shorten it, so the head grows until it holds enough. A pair
  // split at its end is the last character, never one of the first `length`.
  let read = body.length;
  for (let size = length * 4; size < body.length; size *= 2) {
    if (Array.from(body.slice(0, size).replace(/\s+/gu, " ").trim()).length > length) {
      read = size;
      break;
    }
  }
  const flat = body.slice(0, read).replace(/\s+/gu, " ").trim();
  const chars = Array.from(flat);
  if (chars.length <= length) return flat;
  const cut = chars.slice(0, length).join("");
  const space = cut.lastIndexOf(" ");
  // A single long word (a URL) is cut inside it rather than leaving almost nothing.
  const head = space >= cut.length / 2 ? cut.slice(0, space) : cut;
  return `${trimEndWhere(head, (char) => SENTENCE_END.test(char))}…`;
}

/** A post as a list row shows it: its excerpt in place of its body (up to 10,000 characters, which a list's page would carry whole). */
export type ListedPost = Omit<ForumPost, "body"> & { excerpt: string };

export const listedPost = ({ body, ...post }: ForumPost): ListedPost => ({ ...post, excerpt: excerpt(body) });
