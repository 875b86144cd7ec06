/** The plans API's inputs (README "Plans"): pure and browser-safe, the plan form's resolver shares them. */
import { z } from "zod";
import { boundedString, multiLine, oneLine, requiredText, trimmedString, uuidField } from "@/lib/fields";
import { sessionTokenSchema } from "@/lib/locations/schemas";
import { ANSWERS, CANCEL_REASON_MAX, FEEDBACK_ANSWERS, NOTE_MAX, PLAN_TEXTS, TITLE_MAX, VENUE_MAX } from "./rules";
import { parseWallClock } from "./time";

/** The place's wall-clock time, '2026-12-14T19:30' (no offset: the place's zone gives it). */
const wallClock = (message: string) =>
  boundedString(16, message, message).refine((value) => parseWallClock(value) !== null, { message, abort: true });

/** Optional text: "" and null read as none; kept as written otherwise, the ends trimmed. */
const optionalText = (max: number, tooLong: string, notAllowed: string, lines: "one" | "many") =>
  z.preprocess(
    (value) =>
      typeof value === "string" && value.trim() === "" ? null : typeof value === "string" ? value.replace(/\r\n?/g, "\n") : value,
    (lines === "one" ? oneLine(trimmedString(max, tooLong), notAllowed) : multiLine(trimmedString(max, tooLong), notAllowed))
      .nullish()
      .transform((value) => value ?? null),
  );

const placeId = z.string({ error: PLAN_TEXTS.placeRequired }).min(1, PLAN_TEXTS.placeRequired).max(300, PLAN_TEXTS.placeUnknown);

const fields = {
  title: requiredText(TITLE_MAX, PLAN_TEXTS.titleRequired, PLAN_TEXTS.titleTooLong, PLAN_TEXTS.titleNotAllowed),
  startsAt: wallClock(PLAN_TEXTS.startRequired),
  endsAt: z.preprocess((value) => (value === "" ? null : value), wallClock(PLAN_TEXTS.endInvalid).nullish()).transform((v) => v ?? null),
  placeId: oneLine(placeId, PLAN_TEXTS.placeUnknown),
  /** The place search's session the pick of `placeId` ends, billed with its details (sessionTokenSchema). */
  sessionToken: sessionTokenSchema,
  /** A place typed by hand (the place search was down), with the zone the person chose for it. */
  placeName: optionalText(VENUE_MAX, PLAN_TEXTS.placeTooLong, PLAN_TEXTS.placeNotAllowed, "one"),
  timeZone: z.string().max(64, PLAN_TEXTS.typedZoneUnknown).nullish(),
  venue: optionalText(VENUE_MAX, PLAN_TEXTS.venueTooLong, PLAN_TEXTS.venueNotAllowed, "one"),
  note: optionalText(NOTE_MAX, PLAN_TEXTS.noteTooLong, PLAN_TEXTS.noteNotAllowed, "many"),
};

type Where = { placeId?: string | null; placeName?: string | null; timeZone?: string | null };

/** Where: a place from the search or one typed by hand with its zone, never both; `required` for a new plan. */
const checkWhere = (required: boolean) => (where: Where, ctx: z.RefinementCtx) => {
  if (where.placeId && where.placeName) ctx.addIssue({ code: "custom", path: ["placeName"], message: PLAN_TEXTS.placeTwice });
  else if (required && !where.placeId && !where.placeName)
    ctx.addIssue({ code: "custom", path: ["placeId"], message: PLAN_TEXTS.placeRequired });
  if (where.placeName && !where.timeZone) ctx.addIssue({ code: "custom", path: ["timeZone"], message: PLAN_TEXTS.typedZoneUnknown });
};

/** `POST /api/conversations/{id}/plans`. */
export const proposePlanSchema = z
  .object({ ...fields, placeId: fields.placeId.optional(), placeName: fields.placeName.optional() })
  .superRefine(checkWhere(true));
export type PlanInput = z.output<typeof proposePlanSchema>;

/**
 * The `sequence` of the plan as the writer last saw it (optional): a plan changed since refuses the
 * write with 409 PLAN_CHANGED, so nobody overwrites or answers a version they have not seen.
 */
const seenSequence = z
  .number({ error: PLAN_TEXTS.sequenceInvalid })
  .int(PLAN_TEXTS.sequenceInvalid)
  .min(0, PLAN_TEXTS.sequenceInvalid)
  .optional();

/** `PATCH /api/plans/{id}`: the same fields, each optional; what is sent is changed. */
export const changePlanSchema = z
  .object({
    sequence: seenSequence,
    title: fields.title.optional(),
    startsAt: fields.startsAt.optional(),
    endsAt: fields.endsAt.optional(),
    placeId: fields.placeId.optional(),
    sessionToken: fields.sessionToken,
    placeName: fields.placeName.optional(),
    timeZone: fields.timeZone,
    venue: fields.venue.optional(),
    note: fields.note.optional(),
  })
  .superRefine(checkWhere(false))
  // A zone belongs to the place typed by hand it was chosen for (a searched place brings its own):
  // sent alone it would change nothing, so it is refused rather than dropped.
  .superRefine((change, ctx) => {
    if (change.timeZone !== undefined && !change.placeName && !change.placeId)
      ctx.addIssue({ code: "custom", path: ["timeZone"], message: PLAN_TEXTS.zoneWithoutPlace });
  });
export type PlanChange = z.output<typeof changePlanSchema>;

/** `DELETE /api/plans/{id}` (the body is optional). */
export const cancelPlanSchema = z.object({
  reason: optionalText(CANCEL_REASON_MAX, PLAN_TEXTS.reasonTooLong, PLAN_TEXTS.reasonNotAllowed, "many").optional(),
});

/** `PUT /api/plans/{id}/answer`. */
export const answerSchema = z.object({ answer: z.enum(ANSWERS, { error: PLAN_TEXTS.answerInvalid }), sequence: seenSequence });
export type AnswerInput = z.output<typeof answerSchema>;

/** `PUT /api/plans/{id}/feedback`. */
export const feedbackSchema = z.object({ answer: z.enum(FEEDBACK_ANSWERS, { error: PLAN_TEXTS.feedbackInvalid }) });

/** `GET /api/plans?upcoming=1`: only the upcoming list exists. */
export const plansQuerySchema = z.object({ upcoming: z.literal("1", { error: "upcoming must be 1" }).optional() });

export const planParamsSchema = z.object({ id: uuidField(PLAN_TEXTS.idInvalid) });

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The longest plan an end before its start stands for: 19:30 to 19:00 is a slip, not a day out. */
const OVERNIGHT_MAX_HOURS = 12;

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** Whether an end time before the start time is the next day's (TIME-shaped '22:00' and '01:00'). */
function overnight(start: string, end: string): boolean {
  const length = minutesOf(end) + 24 * 60 - minutesOf(start);
  return end < start && length <= OVERNIGHT_MAX_HOURS * 60;
}

/**
 * The calendar day after '2026-12-31' ('2027-01-01'): date arithmetic in UTC, where every day has
 * 24 hours. A date that is no day ('2026-02-30') stays as it is, for the server to refuse.
 */
function nextDay(date: string): string {
  const midnight = Date.parse(`${date}T00:00Z`);
  return Number.isNaN(midnight) ? date : new Date(midnight + 86_400_000).toISOString().slice(0, 10);
}
const TIME = /^\d{2}:\d{2}$/;

/**
 * The plan form ('Plan a meetup'): a date, a start and an optional end time, sent as the API's
 * wall-clock fields; an end before the start is the next day's when that makes an evening out
 * (drinks from 22:00 to 01:00, at most OVERNIGHT_MAX_HOURS), else it stays refused as before the start.
 * The server checks the rest (future, 180 days, PLAN_LENGTH_MAX_HOURS, the place's zone).
 */
export const planFormSchema = z
  .object({
    title: fields.title,
    date: z.string({ error: PLAN_TEXTS.startRequired }).regex(DATE, PLAN_TEXTS.startRequired),
    time: z.string({ error: PLAN_TEXTS.startRequired }).regex(TIME, PLAN_TEXTS.startRequired),
    endTime: z.string().regex(TIME, PLAN_TEXTS.endInvalid).or(z.literal("")),
    /** Chosen from the search, or "" with the place typed by hand and its zone. */
    placeId: z.string().max(300, PLAN_TEXTS.placeUnknown),
    /** The search session the pick of `placeId` ended, "" when none (the server checks it). */
    sessionToken: z.string().optional(),
    placeName: fields.placeName,
    timeZone: z.string().max(64, PLAN_TEXTS.typedZoneUnknown).optional(),
    venue: fields.venue,
    note: fields.note,
  })
  .superRefine(checkWhere(true))
  .transform(({ date, time, endTime, placeId, sessionToken, placeName, timeZone, ...rest }): PlanInput => ({
    ...rest,
    ...(placeId ? { placeId, ...(sessionToken && { sessionToken }) } : { placeName, timeZone }),
    startsAt: `${date}T${time}`,
    endsAt: endTime ? `${overnight(time, endTime) ? nextDay(date) : date}T${endTime}` : null,
  }));
export type PlanFormValues = z.input<typeof planFormSchema>;
