import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { escapeText, foldLine, googleCalendarUrl, outlookCalendarUrl, planCalendar, type CalendarPlan } from "@/lib/plans/calendar";

const plan: CalendarPlan = {
  id: "8d3c2f7e-1111-4222-8333-944455556666",
  conversationId: "c0ffee00-1111-4222-8333-944455556666",
  title: "Dinner and a walk",
  startsAt: "2026-12-14T19:30:00+00:00",
  endsAt: "2026-12-14T22:00:00+00:00",
  timeZone: "Europe/Lisbon",
  place: { name: "Lisbon", city: "Lisbon", country: "Portugal" },
  venue: "Time Out Market",
  note: "Bring a coat",
  confirmed: true,
  cancelledAt: null,
  sequence: 2,
};

/** The file as a calendar app reads it: ical.js, with the file's own VTIMEZONE registered. */
function parse(ics: string) {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  for (const zone of calendar.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(zone);
  const vevent = calendar.getFirstSubcomponent("vevent")!;
  return { calendar, vevent, event: new ICAL.Event(vevent) };
}

describe("the plan's calendar file", () => {
  it("is RFC 5545 a maintained parser reads: stable UID, SEQUENCE, the time with its zone, status", () => {
    const ics = planCalendar(plan, "https://twoofus.example", new Date("2026-12-01T10:00:00Z"));
    expect(ics.endsWith("\r\n")).toBe(true);
    expect(ics.split("\r\n").every((line) => new TextEncoder().encode(line).length <= 75)).toBe(true);
    const { vevent, event } = parse(ics);
    expect(event.uid).toBe(`plan-${plan.id}@twoofus`);
    expect(event.sequence).toBe(2);
    expect(event.summary).toBe("Dinner and a walk");
    expect(event.location).toBe("Time Out Market, Lisbon, Portugal");
    expect(event.description).toContain("Bring a coat");
    expect(event.description).toContain("https://twoofus.example/messages/c0ffee00-1111-4222-8333-944455556666");
    expect(vevent.getFirstPropertyValue("status")).toBe("CONFIRMED");
    expect(vevent.getFirstProperty("dtstart")!.getParameter("tzid")).toBe("Europe/Lisbon");
    expect(event.startDate.zone.tzid).toBe("Europe/Lisbon");
    expect(event.startDate.toJSDate().toISOString()).toBe("2026-12-14T19:30:00.000Z");
    expect(event.endDate.toJSDate().toISOString()).toBe("2026-12-14T22:00:00.000Z");
    // Same plan, same UID: an import updates the entry instead of adding one.
    expect(parse(planCalendar({ ...plan, sequence: 3 }, "https://twoofus.example")).event.uid).toBe(event.uid);
  });

  it("keeps the place's wall clock across the clock change, read through its own VTIMEZONE", () => {
    const summer = parse(planCalendar({ ...plan, startsAt: "2027-07-10T19:30:00+01:00", endsAt: null }, "https://x.example"));
    expect(summer.event.startDate.toJSDate().toISOString()).toBe("2027-07-10T18:30:00.000Z");
    // No end given: three hours.
    expect(summer.event.endDate.toJSDate().toISOString()).toBe("2027-07-10T21:30:00.000Z");
    const afterOctober = parse(planCalendar({ ...plan, startsAt: "2026-10-26T19:30:00+00:00", endsAt: null }, "https://x.example"));
    expect(afterOctober.event.startDate.toJSDate().toISOString()).toBe("2026-10-26T19:30:00.000Z");
    const newYork = parse(
      planCalendar({ ...plan, timeZone: "America/New_York", startsAt: "2026-11-02T19:30:00-05:00", endsAt: null }, "https://x.example"),
    );
    expect(newYork.event.startDate.toJSDate().toISOString()).toBe("2026-11-03T00:30:00.000Z");
    expect(
      parse(planCalendar({ ...plan, timeZone: "Asia/Kolkata", startsAt: "2026-12-14T19:30:00+05:30" }, "https://x.example"))
        .event.startDate.toJSDate()
        .toISOString(),
    ).toBe("2026-12-14T14:00:00.000Z");
  });

  it("says CANCELLED once cancelled, TENTATIVE until all are going", () => {
    expect(
      parse(planCalendar({ ...plan, cancelledAt: "2026-12-10T10:00:00Z", sequence: 3 }, "https://x.example")).vevent.getFirstPropertyValue(
        "status",
      ),
    ).toBe("CANCELLED");
    expect(parse(planCalendar({ ...plan, confirmed: false }, "https://x.example")).vevent.getFirstPropertyValue("status")).toBe(
      "TENTATIVE",
    );
  });

  it("escapes text so a title with a line break, ';' or ',' cannot add a property", () => {
    const hostile = {
      ...plan,
      title: "Dinner\r\nATTENDEE:mailto:evil@example.com;X=1, \\ok",
      venue: "Bar; Rua A, 1\nEND:VEVENT",
      note: "a\nb",
    };
    const ics = planCalendar(hostile, "https://x.example");
    expect(ics).not.toMatch(/^ATTENDEE/m);
    expect(ics.match(/^END:VEVENT/gm)).toHaveLength(1);
    const { vevent, event } = parse(ics);
    expect(vevent.getAllProperties("attendee")).toHaveLength(0);
    expect(event.summary).toBe("Dinner\nATTENDEE:mailto:evil@example.com;X=1, \\ok");
    expect(event.location).toBe("Bar; Rua A, 1\nEND:VEVENT, Lisbon, Portugal");
    expect(escapeText("a;b,c\\d\ne")).toBe("a\\;b\\,c\\\\d\\ne");
  });

  it("folds long lines at 75 octets without splitting a character", () => {
    const long = `SUMMARY:${"é".repeat(100)}`;
    const folded = foldLine(long);
    expect(folded.split("\r\n").every((line) => new TextEncoder().encode(line).length <= 75)).toBe(true);
    expect(folded.replace(/\r\n /g, "")).toBe(long);
    expect(parse(planCalendar({ ...plan, title: "é😀".repeat(60) }, "https://x.example")).event.summary).toBe("é😀".repeat(60));
  });
});

describe("calendar links", () => {
  it("open Google Calendar and Outlook on the web with the plan filled in", () => {
    const google = new URL(googleCalendarUrl(plan));
    expect(google.origin).toBe("https://calendar.google.com");
    expect(Object.fromEntries(google.searchParams)).toEqual({
      action: "TEMPLATE",
      text: "Dinner and a walk",
      dates: "20261214T193000/20261214T220000",
      ctz: "Europe/Lisbon",
      location: "Time Out Market, Lisbon",
      details: "Bring a coat",
    });
    const outlook = new URL(outlookCalendarUrl(plan));
    expect(outlook.origin).toBe("https://outlook.live.com");
    expect(outlook.searchParams.get("startdt")).toBe("2026-12-14T19:30:00+00:00");
    expect(outlook.searchParams.get("enddt")).toBe("2026-12-14T22:00:00+00:00");
    expect(outlook.searchParams.get("subject")).toBe("Dinner and a walk");
  });
});
