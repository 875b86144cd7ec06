/**
 * How a plan reads on screens, in notifications and in the calendar: always in the place's zone,
 * with the viewer's own time beside it when their clock differs there. Pure and browser-safe.
 */
import { goingLine, type AnswerRow } from "./rules";
import { offsetMinutesAt, wallClockAt } from "./time";

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (n: number) => String(n).padStart(2, "0");

type Shown = { startsAt: string | Date; timeZone: string; place: { name: string; city: string | null }; venue: string | null };

const instant = (value: string | Date) => (typeof value === "string" ? new Date(value) : value);

function parts(at: Date, timeZone: string) {
  const w = wallClockAt(at, timeZone);
  const weekday = WEEKDAYS[new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay()]!;
  return {
    weekday,
    date: `${w.day} ${MONTHS[w.month - 1]}`,
    time: `${pad(w.hour)}:${pad(w.minute)}`,
    day: `${w.year}-${w.month}-${w.day}`,
  };
}

/** 'Sat 14 Dec, 19:30' at the place. */
export function dayAndTime(at: string | Date, timeZone: string): string {
  const p = parts(instant(at), timeZone);
  return `${p.weekday} ${p.date}, ${p.time}`;
}

/** 'Sat 14 Dec' at the place. */
export function dateAtPlace(at: string | Date, timeZone: string): string {
  const p = parts(instant(at), timeZone);
  return `${p.weekday} ${p.date}`;
}

/** '14 Dec' at the place ('You met on 14 Dec'). */
export const dayOf = (at: string | Date, timeZone: string) => parts(instant(at), timeZone).date;

/** The city a zone is named after: 'Europe/Lisbon' -> 'Lisbon', 'America/New_York' -> 'New York'. */
export const zoneCity = (timeZone: string) => (timeZone.split("/").pop() ?? timeZone).replace(/_/g, " ");

/** Where the time belongs, in words: the place's city, else its zone's. */
export const placeCity = (plan: Pick<Shown, "place" | "timeZone">) => plan.place.city ?? zoneCity(plan.timeZone);

/** 'Time Out Market, Lisbon' (the venue at its city), else the place's name, with its city when that differs. */
export function placeLine(plan: Pick<Shown, "place" | "venue" | "timeZone">): string {
  const city = plan.place.city;
  const main = plan.venue ?? plan.place.name;
  return city && city !== main ? `${main}, ${city}` : main;
}

/**
 * '19:30 in Lisbon, 20:30 for you' when the viewer's clock differs there ('01:30 Sun for you' when
 * it is another day for them), else '19:30'. `viewerZone` null: the viewer's zone is not known.
 */
export function timeForViewer(plan: Pick<Shown, "startsAt" | "timeZone" | "place">, viewerZone: string | null): string {
  const at = instant(plan.startsAt);
  const here = parts(at, plan.timeZone);
  if (!viewerZone || offsetMinutesAt(at, viewerZone) === offsetMinutesAt(at, plan.timeZone)) return here.time;
  const theirs = parts(at, viewerZone);
  const yours = theirs.day === here.day ? theirs.time : `${theirs.time} ${theirs.weekday}`;
  return `${here.time} in ${placeCity(plan)}, ${yours} for you`;
}

/**
 * 'Sat 14 Dec, 19:30 · Time Out Market, Lisbon · 3 of 4 going' ('Upcoming' lists), with the viewer's
 * own time beside the place's when it differs, and ' · Confirmed' once everyone is going.
 */
export const upcomingLine = (
  plan: Shown & { answers: readonly Pick<AnswerRow, "answer">[]; confirmed: boolean },
  viewerZone: string | null,
) =>
  `${dateAtPlace(plan.startsAt, plan.timeZone)}, ${timeForViewer(plan, viewerZone)} · ${placeLine(plan)} · ` +
  `${goingLine(plan.answers)}${plan.confirmed ? " · Confirmed" : ""}`;

/** 'Sat 14 Dec, 19:30 in Lisbon' (notifications, read anywhere). */
export const whenAtPlace = (plan: Pick<Shown, "startsAt" | "timeZone" | "place">) =>
  `${dayAndTime(plan.startsAt, plan.timeZone)} in ${placeCity(plan)}`;
