/**
 * The hostile-input corpus: strings built to make a backtracking pattern or a per-character
 * transform do work that grows faster than their length (repeated punctuation, '@', '.', spaces,
 * brackets, emoji, combining marks, line breaks, near-URLs and near-addresses). The adversarial
 * test feeds it to every schema and renderer; `npm run bench`'s hostile section runs it beside
 * normal traffic.
 */
export const HOSTILE_UNITS: readonly { name: string; unit: string; head?: string; tail?: string }[] = [
  { name: "dots", unit: "." },
  { name: "at signs", unit: "@" },
  { name: "spaces", unit: " ", head: "a", tail: "b" },
  { name: "tabs and spaces", unit: " \t", head: "a", tail: "\u0000" },
  { name: "line breaks", unit: "\n \n", head: "a", tail: "b" },
  { name: "Windows line ends", unit: "\r\n", head: "a", tail: "b" },
  { name: "closing brackets", unit: ")", head: "https://example.com/(" },
  { name: "brackets", unit: "([{<>}])" },
  { name: "punctuation", unit: ".,;:!?'’”)]}*_-" },
  { name: "near address", unit: ".", head: "a@", tail: "@" },
  { name: "address-like", unit: "a.", head: "a@" },
  { name: "near URL", unit: ".", head: "see https://example.com/", tail: "a)" },
  { name: "URLs", unit: "http://a.b/ " },
  { name: "mentions", unit: "@Maya & Theo @", head: "x" },
  { name: "slashes", unit: "/", head: "/", tail: "x" },
  { name: "emoji", unit: "😀👩‍❤️‍👨" },
  { name: "combining marks", unit: "a\u0301\u0302\u0303\u0304" },
  { name: "digits and dots", unit: "1." },
];

/** A hostile string of exactly `length` UTF-16 units (a pair cut at the end is part of the test). */
export function hostile(entry: (typeof HOSTILE_UNITS)[number], length: number): string {
  const head = entry.head ?? "";
  const tail = entry.tail ?? "";
  const body = Math.max(0, length - head.length - tail.length);
  return (head + entry.unit.repeat(Math.ceil(body / entry.unit.length)).slice(0, body) + tail).slice(0, length);
}
