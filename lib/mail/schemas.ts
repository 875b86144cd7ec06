/** The development outbox's query: pure and browser-safe. */
import { z } from "zod";
import { EMAIL_INVALID_MESSAGE } from "@/lib/auth/rules";
import { oneLine } from "@/lib/fields";

/** GET /api/dev/outbox?to=EMAIL: the address is only compared, so any one-line text will do. */
export const outboxQuerySchema = z.object({ to: oneLine(z.string().max(254, EMAIL_INVALID_MESSAGE), EMAIL_INVALID_MESSAGE).optional() });
