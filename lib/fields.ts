/**
 * Zod building blocks the domains' schemas share (couples, profile, interests, locations): pure
 * and browser-safe, so a form's resolver and the server build each field the same way.
 */
import { z } from "zod";
import { isOneLine, UNSAFE_TEXT } from "./text-rules";

export { BIDI_CONTROL, CONTROL_CHARACTER, hasVisibleText, isOneLine, UNSAFE_TEXT } from "./text-rules";

export const NOTHING_TO_UPDATE_MESSAGE = "Nothing to update";

/** One-line text: refuses every control character and lone surrogate with the field's message. */
export const oneLine = (schema: z.ZodString, message: string) => schema.refine(isOneLine, message);

/** Multi-line text (bios, posts): keeps tabs and line breaks, refuses the rest as oneLine does. */
export const multiLine = (schema: z.ZodString, message: string) => schema.refine((value) => !UNSAFE_TEXT.test(value), message);

/** The message a field's unsafe characters get: "Occupation contains characters that are not allowed". */
export const notAllowedMessage = (field: string) => `${field} contains characters that are not allowed`;

/**
 * An id (a uuid) in its one spelling, lower case, as the database writes it: Postgres reads either
 * case, but an id compared or keyed as text (one's own couple, a notification's group, a lock)
 * must be spelled one way.
 */
export const uuidField = (error: string) => z.uuid({ error }).toLowerCase();

/**
 * A route param that names a row by id: the id lower-cased, or null when it is no uuid at all
 * (Postgres would refuse it with an error; such an id simply names nothing).
 */
export const canonicalId = (id: string): string | null => (z.guid().safeParse(id).success ? id.toLowerCase() : null);

/** A form sends "" for an untouched field and may send nothing at all: both read as missing. */
export const missingAsEmpty = (value: unknown) => value ?? "";

/**
 * A string whose length is checked first, and the only issue when it is too long: zod otherwise
 * goes on to the trims, refinements and patterns, so an over-long value would cost work that
 * grows with its length (no work grows faster than input).
 */
export const boundedString = (max: number, tooLong?: string, error: string | undefined = tooLong) =>
  z.string({ error }).max(max, { message: tooLong, abort: true });

/**
 * Text measured after trimming (and in NFC), as a person sees it, with the raw length checked first as above:
 * white space around the text is forgiven up to the limit again, never more.
 */
export const trimmedString = (max: number, tooLong?: string, error: string | undefined = tooLong) =>
  boundedString(2 * max, tooLong, error)
    .trim()
    // One spelling of each letter ("é" typed as one character or as e and its accent), so two names or addresses that read the same are the same.
    .normalize("NFC")
    .max(max, { message: tooLong, abort: true });

/** Required one-line text; `notAllowed` is the message for control characters (see oneLine). */
export const requiredString = (max: number, required: string, tooLong: string, notAllowed: string) =>
  oneLine(trimmedString(max, tooLong, required).min(1, required), notAllowed);

export const requiredText = (max: number, required: string, tooLong: string, notAllowed: string) =>
  z.preprocess(missingAsEmpty, requiredString(max, required, tooLong, notAllowed));

/** Picks from a fixed list: each value known, duplicates collapsed before the minimum is checked. */
export const picks = (allowed: readonly string[], min: number, max: number, m: { unknown: string; tooFew: string; tooMany: string }) =>
  z
    // More than `max` entries is refused even when some repeat: it also bounds the work done.
    .preprocess((value) => value ?? [], z.array(z.string({ error: m.unknown }), { error: m.tooFew }).max(max, m.tooMany))
    .transform((values) => [...new Set(values.map((value) => value.trim()))])
    .pipe(z.array(z.string().refine((value) => allowed.includes(value), m.unknown)).min(min, m.tooFew));
