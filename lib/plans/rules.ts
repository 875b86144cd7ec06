/**
 * Plans between two talking couples: sizes, limits, words and the derived flags. Pure and
 * browser-safe: the card, the form and the server share them.
 */
import { instantOf, parseWallClock } from "./time";

export const TITLE_MAX = 120;
export const VENUE_MAX = 120;
export const NOTE_MAX = 500;
export const CANCEL_REASON_MAX = 300;
/** How far ahead a plan may be made. */
export const PLAN_AHEAD_DAYS = 180;
/** A plan's end, when given, is after its start and within a day of it. */
export const PLAN_LENGTH_MAX_HOURS = 24;
/** Plans not yet started, per conversation. */
export const UPCOMING_PER_CONVERSATION = 3;
/** Without an end, a meetup is taken to last this long (the calendar entry, 'How was it?'). */
export const DEFAULT_LENGTH_HOURS = 3;

/**
 * Proposals and changes together, per person, in the shape of lib/rate-limit.ts's `Limit`: each
 * tells the other three by notification, e-mail and push, so fewer than messages' 30 a minute
 * and 500 a day (lib/messages/rules.ts); a busy evening of planning, not a script.
 */
const PLANNING_TOO_QUICKLY = "You are changing plans too quickly. Please wait a moment.";
export const PLAN_LIMITS = {
  perMinute: { bucket: "plan-write:minute", limit: 10, windowSeconds: 60, message: PLANNING_TOO_QUICKLY },
  perDay: { bucket: "plan-write:day", limit: 50, windowSeconds: 24 * 60 * 60, message: PLANNING_TOO_QUICKLY },
  /**
   * Going / maybe / can't, 'How was it?' and a share link made or stopped, together: a few taps a
   * plan (three upcoming a conversation), each shown live to the four; 120 an hour bounds a loop.
   */
  answersPerHour: { bucket: "plan-answer:hour", limit: 120, windowSeconds: 60 * 60, message: PLANNING_TOO_QUICKLY },
} as const;

export const ANSWERS = ["going", "maybe", "cant"] as const;
export type PlanAnswer = (typeof ANSWERS)[number];

/** 'How was it?': 'Great, let's meet again' · 'It was fine' · 'Not for us' · 'Something went wrong'. */
export const FEEDBACK_ANSWERS = ["great", "fine", "not_for_us", "went_wrong"] as const;
export type FeedbackAnswer = (typeof FEEDBACK_ANSWERS)[number];
export const FEEDBACK_LABELS: Record<FeedbackAnswer, string> = {
  great: "Great, let's meet again",
  fine: "It was fine",
  not_for_us: "Not for us",
  went_wrong: "Something went wrong",
};

export const ANSWER_LABELS: Record<PlanAnswer | "none", string> = { going: "going", maybe: "maybe", cant: "can't", none: "not yet" };

export const PLAN_TEXTS = {
  notFound: "This plan does not exist or is not yours.",
  idInvalid: "This plan does not exist or is not yours.",
  titleRequired: "Please say what you plan to do",
  titleTooLong: `What you plan must be no more than ${TITLE_MAX} characters`,
  titleNotAllowed: "What you plan contains characters that are not allowed",
  startRequired: "Please choose a date and start time like 2026-12-14T19:30",
  endInvalid: "The end must be a date and time like 2026-12-14T22:00",
  endBeforeStart: "The end must be after the start",
  endTooLate: `A plan may last at most ${PLAN_LENGTH_MAX_HOURS} hours`,
  timeSkipped: "This time does not exist there: the clocks change that night. Please choose another time",
  inThePast: "Please choose a time in the future",
  tooFarAhead: `Plans can be made at most ${PLAN_AHEAD_DAYS} days ahead`,
  placeRequired: "Please choose where you will meet",
  placeUnknown: "This place could not be found. Please choose it again from the list",
  zoneUnknown: "The time zone of this place is not known. Please choose a place nearby",
  typedZoneUnknown: "Please choose the time zone of the place from the list",
  zoneWithoutPlace: "A time zone is chosen with the place typed by hand: please send the place with it",
  placeTooLong: `The place must be no more than ${VENUE_MAX} characters`,
  placeNotAllowed: "The place contains characters that are not allowed",
  placeTwice: "Please either choose a place from the search or type one, not both",
  venueTooLong: `The venue must be no more than ${VENUE_MAX} characters`,
  venueNotAllowed: "The venue contains characters that are not allowed",
  noteTooLong: `The note must be no more than ${NOTE_MAX} characters`,
  noteNotAllowed: "The note contains characters that are not allowed",
  reasonTooLong: `The reason must be no more than ${CANCEL_REASON_MAX} characters`,
  reasonNotAllowed: "The reason contains characters that are not allowed",
  answerInvalid: "Please answer going, maybe or cant",
  sequenceInvalid: "sequence must be the plan's sequence as you saw it",
  tooMany: `A conversation can have at most ${UPCOMING_PER_CONVERSATION} upcoming plans`,
  cancelled: "This plan was cancelled.",
  started: "This plan has already started.",
  notProposer: "Only the couple who proposed this plan can cancel it.",
  nothingChanged: "Nothing to change",
  changedSince: "This plan changed since you opened it. Please look at it again.",
  notYetMet: "You can say how it was once you have met.",
  feedbackInvalid: "Please answer great, fine, not_for_us or went_wrong",
  /** What stands for the words of a plan a moderator removed (its what, and a place typed by hand). */
  removed: "Removed by a moderator",
} as const;

export type AnswerRow = { userId: string; firstName: string; answer: PlanAnswer | null };

/** 'Confirmed': everyone of the conversation now is going (three people when a couple has one partner). */
export const isConfirmed = (answers: readonly AnswerRow[]) => answers.length > 0 && answers.every((a) => a.answer === "going");

/** 'Ana: going · Rui: maybe · Marisol: going · Thaddeus: not yet'. */
export const answersLine = (answers: readonly AnswerRow[]) =>
  answers.map((a) => `${a.firstName}: ${ANSWER_LABELS[a.answer ?? "none"]}`).join(" · ");

/** '3 of 4 going'. */
export const goingLine = (answers: readonly Pick<AnswerRow, "answer">[]) =>
  `${answers.filter((a) => a.answer === "going").length} of ${answers.length} going`;

export type PlanWindow = { startsAt: Date; endsAt: Date | null };

/**
 * The instants a plan's wall-clock times mean at its place, checked: a real time there (not one the
 * clocks skip), in the future, at most PLAN_AHEAD_DAYS ahead, an end after the start and within
 * PLAN_LENGTH_MAX_HOURS. Answers the window, or the field and message that refuse it.
 */
export function planWindow(
  startsLocal: string,
  endsLocal: string | null,
  timeZone: string,
  now: Date,
): { ok: true; window: PlanWindow } | { ok: false; field: "startsAt" | "endsAt"; message: string } {
  const start = parseWallClock(startsLocal);
  const startsAt = start && instantOf(start, timeZone);
  if (!start) return { ok: false, field: "startsAt", message: PLAN_TEXTS.startRequired };
  if (!startsAt) return { ok: false, field: "startsAt", message: PLAN_TEXTS.timeSkipped };
  if (startsAt.getTime() <= now.getTime()) return { ok: false, field: "startsAt", message: PLAN_TEXTS.inThePast };
  if (startsAt.getTime() > now.getTime() + PLAN_AHEAD_DAYS * 86_400_000)
    return { ok: false, field: "startsAt", message: PLAN_TEXTS.tooFarAhead };
  if (endsLocal === null) return { ok: true, window: { startsAt, endsAt: null } };
  const end = parseWallClock(endsLocal);
  const endsAt = end && instantOf(end, timeZone);
  if (!end) return { ok: false, field: "endsAt", message: PLAN_TEXTS.endInvalid };
  if (!endsAt) return { ok: false, field: "endsAt", message: PLAN_TEXTS.timeSkipped };
  if (endsAt.getTime() <= startsAt.getTime()) return { ok: false, field: "endsAt", message: PLAN_TEXTS.endBeforeStart };
  if (endsAt.getTime() - startsAt.getTime() > PLAN_LENGTH_MAX_HOURS * 3_600_000)
    return { ok: false, field: "endsAt", message: PLAN_TEXTS.endTooLate };
  return { ok: true, window: { startsAt, endsAt } };
}
