/**
 * Plain text that people write (forum posts and replies, messages), turned into data React
 * renders: never HTML, so no input can become markup. Also a list row's excerpt of it. Pure and
 * browser-safe.
 */
import { trimEndWhere } from "@/lib/trim-end";

export type Segment =
  { kind: "text"; text: string } | { kind: "link"; text: string; href: string } | { kind: "mention"; coupleId: string; label: string };
/** A line is a run of segments; a paragraph is lines separated by single line breaks. */
export type Line = Segment[];
export type Paragraph = Line[];

/** A mention the server validated for this text: only these become links. */
export type Mention = { coupleId: string; name: string };

/** Every link opens away from the app without handing it our window or our ranking. */
export const LINK_REL = "noopener nofollow ugc";

// http(s) only: javascript:, data: and every other scheme stay plain text. A link ends at white
// space or at a character that cannot start one in plain prose (<, >, ").
const LINK = /\bhttps?:\/\/[^\s<>"]+/giu;

/** How many characters of a link a body shows: a long address would wrap over many lines of a phone. */
export const LINK_LABEL_MAX = 40;

/**
 * A link's words in a body: the address without its scheme, its host always whole (a cut host
 * could hide where the link leads: "www.paypal.com.evil.example"), the rest cut to
 * LINK_LABEL_MAX characters in all with "…" (the link itself keeps the whole address). Counted
 * in code points, so a cut never splits one.
 */
export function linkLabel(text: string): string {
  const shown = text.replace(/^https?:\/\//i, "");
  const hostEnd = shown.search(/[/?#]/);
  if (hostEnd === -1) return shown;
  const host = shown.slice(0, hostEnd);
  const rest = shown.slice(hostEnd);
  const room = Math.max(LINK_LABEL_MAX - Array.from(host).length, 2);
  // A code point is at most two UTF-16 units: this head holds room + 1 of them whenever the rest has that many.
  const head = Array.from(rest.slice(0, room * 2 + 2));
  return head.length > room ? `${host}${head.slice(0, room - 1).join("")}…` : shown;
}

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
function mentionPattern(mentions: readonly Mention[]): RegExp | null {
  const names = [...new Set(mentions.map((m) => m.name).filter((name) => name.trim() !== ""))].sort((a, b) => b.length - a.length);
  if (names.length === 0) return null;
  return new RegExp(`(?<![\\p{L}\\p{N}_@])@(${names.map(escapeRegExp).join("|")})(?![\\p{L}\\p{N}_])`, "giu");
}

function mentionSegments(text: string, pattern: RegExp | null, byName: Map<string, Mention>): Segment[] {
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
function lineSegments(line: string, pattern: RegExp | null, byName: Map<string, Mention>): Line {
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
export function renderBody(body: string, mentions: readonly Mention[] = []): Paragraph[] {
  const byName = new Map<string, Mention>();
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

/**
 * The mentions a body shows linked (renderBody's segments): those whose '@name' stands as a mention
 * of its own, not run into a longer name or word, an address or a link. Every couple listed under a
 * name it links is kept (the link is the first one's).
 */
export function mentionsLinked<M extends Mention>(body: string, mentions: readonly M[]): M[] {
  const linked = new Set<string>();
  for (const paragraph of renderBody(body, mentions))
    for (const line of paragraph)
      for (const segment of line) if (segment.kind === "mention") linked.add(segment.label.slice(1).toLowerCase());
  return mentions.filter((mention) => linked.has(mention.name.toLowerCase()));
}

/**
 * A body's first line as a notice quotes it (an unread-message e-mail, a push's preview): trimmed,
 * at most `max` characters, cut with "…". Trimmed before it is measured, so a line that goes on past
 * the cut always ends in "…", whatever stands at the cut (a space) or before its words. Characters
 * are code points, so an emoji at the cut is never split into half of itself ('�'); only the line's
 * head is split into them: `max + 1` characters take at most twice as many UTF-16 units.
 */
export function firstLine(body: string, max: number): string {
  const line = body.split("\n", 1)[0]!.trim();
  const head = Array.from(line.slice(0, 2 * (max + 1)));
  return head.length > max ? `${head.slice(0, max - 1).join("")}…` : line;
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
