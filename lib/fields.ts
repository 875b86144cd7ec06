/**
 * Zod building blocks the domains' schemas share (couples, profile, interests, locations): pure
 * and browser-safe, so a form's resolver and the server build each field the same way.
 */
import { z } from "zod";
import { isOneLine, UNSAFE_TEXT } from "./text-rules";

export { CONTROL_CHARACTER, isOneLine, UNSAFE_TEXT } from "./text-rules";

export const NOTHING_TO_UPDATE_MESSAGE = "Nothing to update";

/** One-line text: refuses every control character and lone surrogate with the field's message. */
export const oneLine = (schema: z.ZodString, message: string) => schema.refine(isOneLine, message);

/** Multi-line text (bios, posts): keeps tabs and line breaks, refuses the rest as oneLine does. */
export const multiLine = (schema: z.ZodString, message: string) => schema.refine((value) => !UNSAFE_TEXT.test(value), message);

/** The message a field's unsafe characters get: "Occupation contains characters that are not allowed". */
export const notAllowedMessage = (field: string) => `${field} contains characters that are not allowed`;

/** A form sends "" for an untouched field and may send nothing at all: both read as missing. */
export const missingAsEmpty = (value: unknown) => value ?? "";

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
