/** The development outbox's query: pure and browser-safe. */
import { z } from "zod";
import { EMAIL_INVALID_MESSAGE, EMAIL_MAX } from "@/lib/auth/rules";
import { boundedString, oneLine } from "@/lib/fields";

/** GET /api/dev/outbox?to=EMAIL: the address is only compared, so any one-line text will do. */
export const outboxQuerySchema = z.object({
  to: oneLine(boundedString(EMAIL_MAX, EMAIL_INVALID_MESSAGE), EMAIL_INVALID_MESSAGE).optional(),
});
