import "client-only";
import { z } from "zod";

/** A failed settings save's answer: `{ error: { code, message, fields? } }`. */
export const errorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), fields: z.record(z.string(), z.string()).optional() }),
});
