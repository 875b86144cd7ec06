/**
 * The text without its trailing run of characters that `drop` accepts, in one backward pass. The
 * pattern /[...]+$/ reads the same but retries from every character of a long run that does not
 * end the text: quadratic (the guide: linear regexes, no work grows faster than input).
 */
export function trimEndWhere(text: string, drop: (char: string) => boolean): string {
  let end = text.length;
  while (end > 0 && drop(text[end - 1]!)) end -= 1;
  return text.slice(0, end);
}

export const isSlash = (char: string) => char === "/";
