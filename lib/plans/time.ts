/**
 * A plan's time belongs to its place: a wall-clock time ('2026-12-14T19:30') in an IANA zone. These
 * turn one into the instant it means and back, with the Intl time zone data the runtime ships (no
 * table of our own to keep up to date). Pure and browser-safe: the card and the server share them.
 */

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;
const MINUTE = 60_000;
const DAY = 86_400_000;

export type WallClock = { year: number; month: number; day: number; hour: number; minute: number };

/**
 * Date.UTC for every four-digit year: Date.UTC itself reads years 0-99 as 1900-1999, so '0050-06-01'
 * would mean 1950 and match no wall clock of year 50 (a typo's year then read as a clock change).
 */
const utcTime = (year: number, monthIndex: number, day: number, hour = 0, minute = 0) =>
  new Date(Date.UTC(2000, 0, 1, hour, minute)).setUTCFullYear(year, monthIndex, day);

/** '2026-12-14T19:30' as its parts, or null when it is not one real date and time of that form. */
export function parseWallClock(text: string): WallClock | null {
  const match = WALL_CLOCK.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || day < 1) return null;
  // The day must exist in its month (no 31 April, 29 February only in a leap year).
  if (day > new Date(utcTime(year, month, 0)).getUTCDate()) return null;
  return { year, month, day, hour, minute };
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

export const formatWallClock = (w: WallClock) => `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;

/** One formatter per zone the runtime knows, by its own name for it (a bounded set: a name as typed is never a key). */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let found = formatters.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, found);
  }
  return found;
}

/**
 * The zone's IANA name as the runtime spells it ('europe/lisbon' is 'Europe/Lisbon', 'US/Pacific'
 * is 'America/Los_Angeles'), or null when it knows no zone by that name (never an offset or an
 * abbreviation). A plan stores this name, so every spelling of one zone is one zone.
 */
export function knownTimeZone(timeZone: string): string | null {
  if (timeZone.length > 64 || !/^[a-z][\w+-]*(?:\/[\w+-]+){0,2}$/i.test(timeZone)) return null;
  let known: string;
  try {
    known = new Intl.DateTimeFormat("en-US", { timeZone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  formatterFor(known);
  return known;
}

/** The wall clock of the zone at an instant. */
export function wallClockAt(instant: Date, timeZone: string): WallClock {
  const parts = Object.fromEntries(
    formatterFor(timeZone)
      .formatToParts(instant)
      .map((part) => [part.type, Number(part.value)]),
  ) as Record<string, number>;
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute! };
}

const asUtc = (w: WallClock) => utcTime(w.year, w.month - 1, w.day, w.hour, w.minute);

/** The zone's offset from UTC at an instant, in minutes (Lisbon in July: 60). */
export function offsetMinutesAt(instant: Date, timeZone: string): number {
  const floored = Math.floor(instant.getTime() / MINUTE) * MINUTE;
  return (asUtc(wallClockAt(new Date(floored), timeZone)) - floored) / MINUTE;
}

/**
 * The instant a wall-clock time means in a zone. A time the clocks skip (02:30 when they spring
 * forward) means no instant: null. A time they pass twice (01:30 when they fall back) is the
 * first of the two, as calendar apps read it. Zones change their offset at most once a day, so
 * the offsets a day either side are the only candidates.
 */
export function instantOf(w: WallClock, timeZone: string): Date | null {
  const local = asUtc(w);
  const offsets = new Set([offsetMinutesAt(new Date(local - DAY), timeZone), offsetMinutesAt(new Date(local + DAY), timeZone)]);
  const matches = [...offsets]
    .map((offset) => local - offset * MINUTE)
    .filter((candidate) => formatWallClock(wallClockAt(new Date(candidate), timeZone)) === formatWallClock(w))
    .sort((a, b) => a - b);
  return matches.length > 0 ? new Date(matches[0]!) : null;
}

/** '+01:00', '-05:00', '+05:45'. */
export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** ISO 8601 with the offset in force at the place: '2026-12-14T19:30:00+00:00'. */
export function isoAtPlace(instant: Date, timeZone: string): string {
  return `${formatWallClock(wallClockAt(instant, timeZone))}:00${formatOffset(offsetMinutesAt(instant, timeZone))}`;
}
