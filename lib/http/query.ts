/** Query-string numbers, shared by the API's list and search parameters: pure and browser-safe. */
import { z } from "zod";

/** Query strings send "" for an empty field: that is "not given", not zero. */
export const fromQueryString = (value: unknown) => {
  if (typeof value !== "string") return value;
  return value.trim() === "" ? undefined : Number(value);
};

/** A number parameter; a missing one says so, anything else not a number says that. */
export const numberParam = (name: string) =>
  z.number({ error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} must be a number`) });

/** A whole-number parameter within [min, max], `fallback` when not given. */
export const intParam = (name: string, min: number, max: number, fallback: number) =>
  z.preprocess(
    fromQueryString,
    numberParam(name)
      .int(`${name} must be a whole number`)
      .min(min, `${name} must be between ${min} and ${max}`)
      .max(max, `${name} must be between ${min} and ${max}`)
      .default(fallback),
  );
