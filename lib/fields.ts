/**
 * Zod building blocks the domains' schemas share (couples, profile, interests, locations): pure
 * and browser-safe, so a form's resolver and the server build each field the same way.
 */
import { z } from "zod";

export const NOTHING_TO_UPDATE_MESSAGE = "Nothing to update";

/** A form sends "" for an untouched field and may send nothing at all: both read as missing. */
export const missingAsEmpty = (value: unknown) => value ?? "";

export const requiredString = (max: number, required: string, tooLong: string) => z.string({ error: required }).trim().min(1, required).max(max, tooLong);

export const requiredText = (max: number, required: string, tooLong: string) => z.preprocess(missingAsEmpty, requiredString(max, required, tooLong));

/** Picks from a fixed list: each value known, duplicates collapsed before the minimum is checked. */
export const picks = (allowed: readonly string[], min: number, max: number, m: { unknown: string; tooFew: string; tooMany: string }) =>
  z
    // More than `max` entries is refused even when some repeat: it also bounds the work done.
    .preprocess((value) => value ?? [], z.array(z.string({ error: m.unknown }), { error: m.tooFew }).max(max, m.tooMany))
    .transform((values) => [...new Set(values.map((value) => value.trim()))])
    .pipe(z.array(z.string().refine((value) => allowed.includes(value), m.unknown)).min(min, m.tooFew));
