/**
 * Zod building blocks the domains' schemas share (couples, profile, interests, locations): pure
 * and browser-safe, so a form's resolver and the server build each field the same way.
 */
import { z } from "zod";

export const NOTHING_TO_UPDATE_MESSAGE = "Nothing to update";

/**
 * The one control-character rule for one-line text: line breaks (U+2028/2029 too), tabs, NUL and
 * the like are never part of a name, an address or a token, and a name ends up in e-mail subjects.
 */
export const CONTROL_CHARACTER = /[\p{Cc}\u2028\u2029]/u;

/**
 * What no text anywhere may hold, multi-line text included: control characters other than tab and
 * line breaks, and lone UTF-16 surrogates (no valid UTF-8 spelling; Postgres refuses NUL with 22021).
 */
export const UNSAFE_TEXT = /[\0-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\p{Cs}]/u;

const LONE_SURROGATE = /\p{Cs}/u;

/** One-line text: refuses every control character and lone surrogate with the field's message. */
export const oneLine = (schema: z.ZodString, message: string) => schema.refine(isOneLine, message);

/** The rule of oneLine as a plain test, for lenient readers (a page's search params) that drop rather than refuse. */
export function isOneLine(value: string): boolean {
  return !CONTROL_CHARACTER.test(value) && !LONE_SURROGATE.test(value);
}

/** Multi-line text (bios, posts): keeps tabs and line breaks, refuses the rest as oneLine does. */
export const multiLine = (schema: z.ZodString, message: string) => schema.refine((value) => !UNSAFE_TEXT.test(value), message);

/** The message a field's unsafe characters get: "Occupation contains characters that are not allowed". */
export const notAllowedMessage = (field: string) => `${field} contains characters that are not allowed`;

/** A form sends "" for an untouched field and may send nothing at all: both read as missing. */
export const missingAsEmpty = (value: unknown) => value ?? "";

/**
 * A string whose length is checked first, and the only issue when it is too long: zod otherwise
 * goes on to the trims, refinements and patterns, so an over-long value would cost work that
 * grows with its length (no work grows faster than input).
 */
export const boundedString = (max: number, tooLong: string, error: string = tooLong) =>
  z.string({ error }).max(max, { message: tooLong, abort: true });

/** Required one-line text; `notAllowed` is the message for control characters (see oneLine). */
export const requiredString = (max: number, required: string, tooLong: string, notAllowed: string) =>
  oneLine(z.string({ error: required }).trim().min(1, required).max(max, tooLong), notAllowed);

export const requiredText = (max: number, required: string, tooLong: string, notAllowed: string) =>
  z.preprocess(missingAsEmpty, requiredString(max, required, tooLong, notAllowed));

/** Picks from a fixed list: each value known, duplicates collapsed before the minimum is checked. */
export const picks = (allowed: readonly string[], min: number, max: number, m: { unknown: string; tooFew: string; tooMany: string }) =>
  z
    // More than `max` entries is refused even when some repeat: it also bounds the work done.
    .preprocess((value) => value ?? [], z.array(z.string({ error: m.unknown }), { error: m.tooFew }).max(max, m.tooMany))
    .transform((values) => [...new Set(values.map((value) => value.trim()))])
    .pipe(z.array(z.string().refine((value) => allowed.includes(value), m.unknown)).min(min, m.tooFew));
