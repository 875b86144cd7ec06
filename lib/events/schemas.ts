import { z } from "zod";
import { boundedString, trimmedString, multiLine, requiredString } from "@/lib/fields";
import { placeIdSchema, sessionTokenSchema } from "@/lib/locations/schemas";
import {
  EVENT_CAPACITY_MAX,
  EVENT_CAPACITY_MIN,
  EVENT_CURRENCIES,
  EVENT_DESCRIPTION_MAX,
  EVENT_DESCRIPTION_MIN,
  EVENT_HORIZON_DAYS,
  EVENT_MESSAGES,
  EVENT_PRICE_MAX_CENTS,
  EVENT_TITLE_MAX,
  localStartsAt,
  parseStartsAt,
  typedPriceCents,
} from "./rules";

/**
 * `POST /api/events`: `{title, startsAt, placeId, sessionToken?, capacity, priceCents, currency, description}`.
 * startsAt is an ISO date-time (with its zone; without one it is read as UTC) in the future.
 */
export const createEventSchema = z.object({
  title: requiredString(EVENT_TITLE_MAX, EVENT_MESSAGES.titleRequired, EVENT_MESSAGES.titleTooLong, EVENT_MESSAGES.titleNotAllowed),
  startsAt: boundedString(40, EVENT_MESSAGES.startsAtRequired).transform((value, ctx) => {
    const date = parseStartsAt(value.trim());
    if (!date) {
      ctx.addIssue({ code: "custom", message: EVENT_MESSAGES.startsAtRequired });
      return z.NEVER;
    }
    if (date.getTime() <= Date.now()) {
      ctx.addIssue({ code: "custom", message: EVENT_MESSAGES.startsAtPast });
      return z.NEVER;
    }
    if (date.getTime() > Date.now() + EVENT_HORIZON_DAYS * 86_400_000) {
      ctx.addIssue({ code: "custom", message: EVENT_MESSAGES.startsAtTooFar });
      return z.NEVER;
    }
    return date;
  }),
  placeId: placeIdSchema,
  /** The place search's session the pick of `placeId` ends, billed with its details (sessionTokenSchema). */
  sessionToken: sessionTokenSchema,
  capacity: z
    .number({ error: EVENT_MESSAGES.capacity })
    .int(EVENT_MESSAGES.capacity)
    .min(EVENT_CAPACITY_MIN, EVENT_MESSAGES.capacity)
    .max(EVENT_CAPACITY_MAX, EVENT_MESSAGES.capacity),
  priceCents: z
    .number({ error: EVENT_MESSAGES.price })
    .int(EVENT_MESSAGES.price)
    .min(0, EVENT_MESSAGES.price)
    .max(EVENT_PRICE_MAX_CENTS, EVENT_MESSAGES.price),
  currency: z.enum(EVENT_CURRENCIES, { error: EVENT_MESSAGES.currency }),
  description: multiLine(
    trimmedString(EVENT_DESCRIPTION_MAX, EVENT_MESSAGES.descriptionTooLong, EVENT_MESSAGES.descriptionTooShort).min(
      EVENT_DESCRIPTION_MIN,
      EVENT_MESSAGES.descriptionTooShort,
    ),
    EVENT_MESSAGES.descriptionNotAllowed,
  ),
});
export type CreateEventInput = z.output<typeof createEventSchema>;

const call = createEventSchema.shape;

/**
 * The create form: each field as typed, read as the call reads it (eventValues) and checked with
 * the call's own check, so with its messages; a place not chosen from the list is asked for in
 * the page's words.
 */
export const eventFormSchema = z.object({
  title: call.title,
  startsAt: z.string().transform(localStartsAt).pipe(call.startsAt),
  placeId: z.string().min(1, EVENT_MESSAGES.placeRequired).pipe(call.placeId),
  sessionToken: z
    .string()
    .transform((token) => token || undefined)
    .pipe(call.sessionToken),
  capacity: z.string().transform(Number).pipe(call.capacity),
  price: z.string().transform(typedPriceCents).pipe(call.priceCents),
  currency: call.currency,
  description: call.description,
});
