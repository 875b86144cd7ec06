/**
 * 'Add to calendar': the plan as an iCalendar file (RFC 5545) a calendar app imports and later
 * updates (the same UID, a higher SEQUENCE, STATUS:CANCELLED), and links that open Google Calendar
 * and Outlook on the web with it filled in. Pure: the route hands it the plan and the app's URL.
 */
import { placeLine } from "./format";
import { DEFAULT_LENGTH_HOURS } from "./rules";
import { formatOffset, isoAtPlace, offsetMinutesAt, wallClockAt, type WallClock } from "./time";

export type CalendarPlan = {
  id: string;
  title: string;
  startsAt: string;
  endsAt: string | null;
  timeZone: string;
  place: { name: string; city: string | null; country: string | null };
  venue: string | null;
  note: string | null;
  confirmed: boolean;
  cancelledAt: string | null;
  sequence: number;
  conversationId: string;
};

const HOUR = 3_600_000;
const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** The end, or the start plus the usual length when none was given. */
export const endOf = (plan: Pick<CalendarPlan, "startsAt" | "endsAt">) =>
  plan.endsAt ? new Date(plan.endsAt) : new Date(new Date(plan.startsAt).getTime() + DEFAULT_LENGTH_HOURS * HOUR);

/** A shared link ('Share with a friend') works until this long after the meetup's end. */
export const SHARE_AFTER_HOURS = 24;

/** When a plan's shared links stop working (and a new one can no longer be made). */
export const shareEndsAt = (plan: Pick<CalendarPlan, "startsAt" | "endsAt">) => new Date(endOf(plan).getTime() + SHARE_AFTER_HOURS * HOUR);

/** '20261214T193000' (a local DATE-TIME, the TZID beside it says where). */
const localStamp = (w: WallClock) => `${pad(w.year, 4)}${pad(w.month)}${pad(w.day)}T${pad(w.hour)}${pad(w.minute)}00`;
/** '20261214T193000Z'. */
const utcStamp = (at: Date) =>
  at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

/** TEXT values (section 3.3.11): backslash, semicolon and comma escaped, every line break as \n, so no text can end a line or add a property. */
export const escapeText = (text: string) =>
  text
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r\n|[\r\n\u2028\u2029]/g, "\\n")
    // Control characters other than the above have no place in a calendar line (the inputs refuse them anyway).
    .replace(/\p{Cc}/gu, "");

const encoder = new TextEncoder();

/** Lines of at most 75 octets (section 3.1), folded with CRLF and a space, never inside a UTF-8 character. */
export function foldLine(line: string): string {
  const out: string[] = [];
  let current = "";
  let size = 0;
  for (const char of line) {
    const bytes = encoder.encode(char).length;
    const limit = out.length === 0 ? 75 : 74;
    if (size + bytes > limit) {
      out.push(current);
      current = "";
      size = 0;
    }
    current += char;
    size += bytes;
  }
  out.push(current);
  return out.join("\r\n ");
}

/**
 * The zone's changes around the plan as VTIMEZONE observances (section 3.6.5): the offset in force
 * a year before the plan, then each change up to a year after it, found from the runtime's zone
 * data (one check a day, then to the minute). A zone without changes is one STANDARD observance.
 */
export function vtimezone(timeZone: string, around: Date): string[] {
  const from = around.getTime() - 366 * 24 * HOUR;
  const to = around.getTime() + 366 * 24 * HOUR;
  const offset = (ms: number) => offsetMinutesAt(new Date(ms), timeZone);
  const changes: { at: number; before: number; after: number }[] = [];
  for (let day = from; day < to; day += 24 * HOUR) {
    const [before, after] = [offset(day), offset(day + 24 * HOUR)];
    if (before === after) continue;
    let [lo, hi] = [day, day + 24 * HOUR];
    while (hi - lo > 60_000) {
      const mid = Math.floor((lo + hi) / 2 / 60_000) * 60_000;
      if (offset(mid) === before) lo = mid;
      else hi = mid;
    }
    changes.push({ at: hi, before, after });
  }
  const lines = ["BEGIN:VTIMEZONE", `TZID:${timeZone}`];
  const observance = (kind: string, startLocal: string, fromOffset: number, toOffset: number) => [
    `BEGIN:${kind}`,
    `DTSTART:${startLocal}`,
    `TZOFFSETFROM:${formatOffset(fromOffset).replace(":", "")}`,
    `TZOFFSETTO:${formatOffset(toOffset).replace(":", "")}`,
    `END:${kind}`,
  ];
  const first = offset(from);
  // The largest of the offsets seen is daylight time; a zone with one offset has standard time only.
  const daylight = Math.max(first, ...changes.map((c) => c.after));
  const kindOf = (to: number) => (changes.length > 0 && to === daylight ? "DAYLIGHT" : "STANDARD");
  lines.push(...observance(kindOf(first), "19700101T000000", first, first));
  for (const change of changes) {
    // An observance starts at the local time in force before the change (section 3.8.2.4, with TZOFFSETFROM).
    const startLocal = localStamp(wallClockAt(new Date(change.at + change.before * 60_000), "UTC"));
    lines.push(...observance(kindOf(change.after), startLocal, change.before, change.after));
  }
  lines.push("END:VTIMEZONE");
  return lines;
}

/** The plan as an .ics file: CRLF lines, folded, every text escaped. `appUrl` opens its conversation. */
export function planCalendar(plan: CalendarPlan, appUrl: string, now = new Date()): string {
  const start = new Date(plan.startsAt);
  const link = `${appUrl.replace(/\/$/, "")}/messages/${encodeURIComponent(plan.conversationId)}`;
  const where = [placeLine(plan), plan.place.country].filter(Boolean).join(", ");
  const description = [plan.note, `Plan made on Two of Us: ${link}`].filter(Boolean).join("\n\n");
  const status = plan.cancelledAt ? "CANCELLED" : plan.confirmed ? "CONFIRMED" : "TENTATIVE";
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Two of Us//Plans//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    ...vtimezone(plan.timeZone, start),
    "BEGIN:VEVENT",
    `UID:plan-${plan.id}@twoofus`,
    `DTSTAMP:${utcStamp(now)}`,
    `DTSTART;TZID=${plan.timeZone}:${localStamp(wallClockAt(start, plan.timeZone))}`,
    `DTEND;TZID=${plan.timeZone}:${localStamp(wallClockAt(endOf(plan), plan.timeZone))}`,
    `SEQUENCE:${plan.sequence}`,
    `STATUS:${status}`,
    `SUMMARY:${escapeText(plan.title)}`,
    `LOCATION:${escapeText(where)}`,
    `DESCRIPTION:${escapeText(description)}`,
    `URL:${link}`,
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return lines.map(foldLine).join("\r\n") + "\r\n";
}

/** Google Calendar's 'add event' page with the plan filled in (its time as the place's wall clock, with the zone). */
export function googleCalendarUrl(plan: CalendarPlan): string {
  const local = (at: Date) => localStamp(wallClockAt(at, plan.timeZone));
  const params = new URLSearchParams({
    action: "TEMPLATE",
    text: plan.title,
    dates: `${local(new Date(plan.startsAt))}/${local(endOf(plan))}`,
    ctz: plan.timeZone,
    location: placeLine(plan),
    details: plan.note ?? "",
  });
  return `https://calendar.google.com/calendar/render?${params}`;
}

/** Outlook on the web's new-event page with the plan filled in (times with their offset). */
export function outlookCalendarUrl(plan: CalendarPlan): string {
  const params = new URLSearchParams({
    path: "/calendar/action/compose",
    rru: "addevent",
    subject: plan.title,
    startdt: plan.startsAt,
    enddt: isoAtPlace(endOf(plan), plan.timeZone),
    location: placeLine(plan),
    body: plan.note ?? "",
  });
  return `https://outlook.live.com/calendar/0/deeplink/compose?${params}`;
}
