/**
 * The text rules without zod (lib/fields builds its schemas on them): what a client page may
 * test input with before any validation library loads. Pure and browser-safe.
 */

/**
 * The one control-character rule for one-line text: line breaks (U+2028/2029 too), tabs, NUL and
 * the like are never part of a name, an address or a token, and a name ends up in e-mail subjects.
 */
export const CONTROL_CHARACTER = /[\p{Cc}\u2028\u2029]/u;

/**
 * The bidirectional embeddings, overrides and isolates (U+202A-202E, U+2066-2069): in a name or
 * a title they make it read as another ("\u202Eecila" shows as "alice"). Refused in one-line text
 * only; pasted paragraphs of mixed scripts carry them, and a body or a message keeps them.
 */
export const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/u;

/** A character that shows: not white space and not an invisible format character (U+200B and the like). */
const VISIBLE_CHARACTER = /[^\p{White_Space}\p{Cf}]/u;

/** Whether the text shows anything: a name or a message of invisible characters alone says nothing. */
export const hasVisibleText = (value: string): boolean => VISIBLE_CHARACTER.test(value);

/**
 * What no text anywhere may hold, multi-line text included: control characters other than tab and
 * line breaks, and lone UTF-16 surrogates (no valid UTF-8 spelling; Postgres refuses NUL with 22021).
 */
export const UNSAFE_TEXT = /(?![\t\n\r])[\p{Cc}\p{Cs}]/u;

const LONE_SURROGATE = /\p{Cs}/u;

/** The rule of oneLine as a plain test (nothing, or something that shows), for lenient readers (a page's search params) that drop rather than refuse. */
export function isOneLine(value: string): boolean {
  return (
    !CONTROL_CHARACTER.test(value) && !BIDI_CONTROL.test(value) && !LONE_SURROGATE.test(value) && (value === "" || hasVisibleText(value))
  );
}
