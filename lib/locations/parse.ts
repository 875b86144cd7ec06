import "server-only";
import type { z } from "zod";
import { validationError } from "@/lib/http/errors";

/** Like parseWith, but the message names the first problem ("lat must be a number"): API clients see why. */
export function parseLocationInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error, parsed.error.issues[0]?.message);
  return parsed.data;
}
