import { z } from "zod";
import { boundedString, oneLine, uuidField } from "@/lib/fields";
import { intParam } from "@/lib/http/query";
import {
  CHANNELS,
  LIST_DEFAULT_LIMIT,
  LIST_MAX_LIMIT,
  MARK_READ_MAX_IDS,
  NOTIFICATION_TYPES,
  type ChannelChoiceInput,
  type NotificationKind,
} from "./rules";

/** Deep offsets are refused rather than scanned: no one pages through a million notifications. */
export const LIST_MAX_OFFSET = 100_000;

export const listQuerySchema = z.object({
  limit: intParam("limit", 1, LIST_MAX_LIMIT, LIST_DEFAULT_LIMIT),
  offset: intParam("offset", 0, LIST_MAX_OFFSET, 0),
});
export type ListQuery = z.output<typeof listQuerySchema>;

/**
 * /notifications?page=N as the list loads it, LIST_DEFAULT_LIMIT a page: anything that is not a
 * page number, or a page deeper than LIST_MAX_OFFSET (which the list's call refuses), is the first.
 */
export function listPageNumber(value: string | string[] | undefined): number {
  const page = Number(Array.isArray(value) ? value[0] : value);
  const deepest = Math.floor(LIST_MAX_OFFSET / LIST_DEFAULT_LIMIT) + 1;
  return Number.isSafeInteger(page) && page >= 1 && page <= deepest ? page : 1;
}

/**
 * Either the ids to mark (only the caller's unread ones change) or every unread one; with
 * mark_all, `up_to` (the created_at of the newest notification the person was shown) leaves
 * unread what arrived after it: 'Mark all as read' marks only what they saw.
 */
export const markReadSchema = z
  .object({
    notification_ids: z
      .array(uuidField("notification_ids must be UUIDs"), { error: "notification_ids must be a list of ids" })
      .max(MARK_READ_MAX_IDS, `notification_ids may name at most ${MARK_READ_MAX_IDS} notifications`)
      .optional(),
    mark_all: z.boolean({ error: "mark_all must be true or false" }).optional(),
    up_to: z.iso
      .datetime({ offset: true, error: "up_to must be a date and time" })
      .transform((value) => new Date(value))
      .optional(),
  })
  .refine((v) => !(v.mark_all && v.notification_ids), { error: "Send either notification_ids or mark_all, not both" })
  .refine((v) => v.mark_all === true || v.notification_ids !== undefined, { error: "notification_ids or mark_all is required" })
  .refine((v) => v.mark_all === true || v.up_to === undefined, { error: "up_to goes with mark_all only" })
  .transform((v): MarkReadTarget => (v.mark_all ? { all: true, upTo: v.up_to } : { ids: [...new Set(v.notification_ids)] }));

export type MarkReadTarget = { all: true; upTo?: Date } | { ids: string[] };

/** One choice per channel (CHANNELS), each required but the ones added later. */
const channelChoice = z.object(
  Object.fromEntries(
    CHANNELS.map(({ key, required }) => {
      const choice = z.boolean({ error: `${key} must be true or false` });
      return [key, required ? choice : choice.optional()];
    }),
  ),
  {
    error: `Each type needs ${CHANNELS.filter((channel) => channel.required)
      .map(({ key }) => key)
      .join(" and ")}`,
  },
) as unknown as z.ZodType<ChannelChoiceInput>;

export type NotificationPreferencesInput = Partial<Record<NotificationKind, ChannelChoiceInput>>;

/** PUT /api/settings/notifications: the types named (of the defined ones) change, the others stay as they are. */
export const notificationPreferencesSchema = z.object({
  preferences: z
    .object(Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, channelChoice.optional()])), { error: "preferences is required" })
    .strict() as unknown as z.ZodType<NotificationPreferencesInput>,
});

/** The unsubscribe link's token (query string or one-click POST). */
export const unsubscribeQuerySchema = z.object({
  token: oneLine(boundedString(200, "Token is invalid", "Token is required").min(1, "Token is required"), "Token is invalid"),
});
