import { describe, expect, it } from "vitest";
import { dayAndTime, placeLine, timeForViewer, upcomingLine } from "@/lib/plans/format";
import { answersLine, isConfirmed, PLAN_TEXTS, planWindow, type PlanAnswer } from "@/lib/plans/rules";
import { changePlanSchema, planFormSchema, proposePlanSchema } from "@/lib/plans/schemas";
import { instantOf, isoAtPlace, knownTimeZone, offsetMinutesAt, parseWallClock } from "@/lib/plans/time";

const wall = (text: string) => parseWallClock(text)!;
const NOW = new Date("2026-10-01T12:00:00Z");

describe("wall-clock times at a place", () => {
  it("reads only real dates and times of the form 2026-12-14T19:30", () => {
    expect(parseWallClock("2026-12-14T19:30")).toEqual({ year: 2026, month: 12, day: 14, hour: 19, minute: 30 });
    for (const bad of [
      "2026-02-29T10:00",
      "2026-04-31T10:00",
      "2026-13-01T10:00",
      "2026-12-14T24:00",
      "2026-12-14T19:60",
      "2026-12-14 19:30",
      "2026-12-14T19:30Z",
      "2026-12-14T19:30:00",
      "",
    ])
      expect(parseWallClock(bad), bad).toBeNull();
    expect(parseWallClock("2028-02-29T10:00")).not.toBeNull();
  });

  it("means the instant of the place's clock, with the offset in force there that day", () => {
    expect(instantOf(wall("2026-12-14T19:30"), "Europe/Lisbon")!.toISOString()).toBe("2026-12-14T19:30:00.000Z");
    expect(instantOf(wall("2026-07-14T19:30"), "Europe/Lisbon")!.toISOString()).toBe("2026-07-14T18:30:00.000Z");
    expect(instantOf(wall("2026-12-14T19:30"), "America/New_York")!.toISOString()).toBe("2026-12-15T00:30:00.000Z");
    expect(instantOf(wall("2026-12-14T19:30"), "Asia/Kathmandu")!.toISOString()).toBe("2026-12-14T13:45:00.000Z");
    expect(isoAtPlace(new Date("2026-07-14T18:30:00Z"), "Europe/Lisbon")).toBe("2026-07-14T19:30:00+01:00");
    expect(isoAtPlace(new Date("2026-12-15T00:30:00Z"), "America/New_York")).toBe("2026-12-14T19:30:00-05:00");
  });

  it("keeps 19:30 at 19:30 across the October clock change (the offset changes, the wall clock does not)", () => {
    const before = instantOf(wall("2026-10-24T19:30"), "Europe/Lisbon")!;
    const after = instantOf(wall("2026-10-25T19:30"), "Europe/Lisbon")!;
    expect(after.getTime() - before.getTime()).toBe(25 * 3_600_000);
    expect(isoAtPlace(before, "Europe/Lisbon")).toBe("2026-10-24T19:30:00+01:00");
    expect(isoAtPlace(after, "Europe/Lisbon")).toBe("2026-10-25T19:30:00+00:00");
  });

  it("refuses a time the clocks skip and reads a time they pass twice as the first", () => {
    expect(instantOf(wall("2026-03-29T01:30"), "Europe/Lisbon")).toBeNull();
    expect(instantOf(wall("2026-03-08T02:30"), "America/New_York")).toBeNull();
    expect(instantOf(wall("2026-10-25T01:30"), "Europe/Lisbon")!.toISOString()).toBe("2026-10-25T00:30:00.000Z");
    expect(instantOf(wall("2026-11-01T01:30"), "America/New_York")!.toISOString()).toBe("2026-11-01T05:30:00.000Z");
  });

  it("knows IANA zones only: no offsets, abbreviations, paths or made-up names", () => {
    expect(knownTimeZone("Europe/Lisbon")).toBe("Europe/Lisbon");
    expect(knownTimeZone("America/Argentina/Buenos_Aires")).not.toBeNull();
    for (const bad of ["Mars/Olympus_Mons", "+01:00", "../../etc/passwd", "Europe/Lisbon\u0000", "", "x".repeat(200)])
      expect(knownTimeZone(bad), bad).toBeNull();
    expect(offsetMinutesAt(new Date("2026-07-01T00:00:00Z"), "Europe/Madrid")).toBe(120);
  });

  it("answers the runtime's own name for a zone, so every spelling of one zone is stored as one", () => {
    expect(knownTimeZone("eUROPE/pARIS")).toBe("Europe/Paris");
    expect(knownTimeZone("europe/lisbon")).toBe("Europe/Lisbon");
    expect(knownTimeZone("US/Pacific")).toBe("America/Los_Angeles");
  });
});

describe("a plan's window", () => {
  it("must be in the future, at most 180 days ahead, a real time there, ending after it starts within a day", () => {
    const check = (start: string, end: string | null = null) => planWindow(start, end, "Europe/Lisbon", NOW);
    expect(check("2026-12-14T19:30", "2026-12-14T22:00")).toEqual({
      ok: true,
      window: { startsAt: new Date("2026-12-14T19:30:00Z"), endsAt: new Date("2026-12-14T22:00:00Z") },
    });
    expect(check("2026-10-01T12:59")).toMatchObject({ ok: false, message: PLAN_TEXTS.inThePast });
    expect(check("2026-10-01T13:01").ok).toBe(true);
    expect(check("2027-03-30T12:00")).toMatchObject({ ok: true });
    expect(check("2027-03-31T12:00")).toMatchObject({ ok: false, message: PLAN_TEXTS.tooFarAhead });
    expect(check("2027-03-28T01:30")).toMatchObject({ ok: false, field: "startsAt", message: PLAN_TEXTS.timeSkipped });
    expect(check("2026-12-14T19:30", "2026-12-14T19:30")).toMatchObject({ ok: false, field: "endsAt", message: PLAN_TEXTS.endBeforeStart });
    expect(check("2026-12-14T19:30", "2026-12-15T19:31")).toMatchObject({ ok: false, field: "endsAt", message: PLAN_TEXTS.endTooLate });
  });

  it("reads a year under 100 as that year (Date.UTC would make 0050 into 1950), so it is in the past, not a clock change", () => {
    expect(parseWallClock("0004-02-29T12:00")).not.toBeNull();
    expect(parseWallClock("0100-02-29T12:00")).toBeNull();
    expect(instantOf(wall("0050-06-01T12:00"), "UTC")!.toISOString()).toBe("0050-06-01T12:00:00.000Z");
    for (const start of ["0050-06-01T12:00", "0001-01-01T00:00", "0099-12-31T23:59"])
      expect(planWindow(start, null, "Europe/Lisbon", NOW), start).toMatchObject({
        ok: false,
        field: "startsAt",
        message: PLAN_TEXTS.inThePast,
      });
  });
});

describe("the plan form's input", () => {
  const valid = { title: "Dinner and a walk", startsAt: "2026-12-14T19:30", placeId: "geonames:2267057" };

  it("takes what, when and where; the end, venue and note are optional", () => {
    expect(proposePlanSchema.parse({ ...valid, venue: " ", note: "" })).toEqual({ ...valid, endsAt: null, venue: null, note: null });
    expect(proposePlanSchema.parse({ ...valid, note: "Bring\r\numbrellas" }).note).toBe("Bring\numbrellas");
  });

  it("refuses a 121-character title, NUL bytes, line breaks in one-line fields and bad times", () => {
    const refused = (input: unknown) => proposePlanSchema.safeParse(input).success;
    expect(refused({ ...valid, title: "x".repeat(120) })).toBe(true);
    for (const bad of [
      { ...valid, title: "x".repeat(121) },
      { ...valid, title: "Dinner\u0000" },
      { ...valid, title: "Dinner\nSUMMARY:evil" },
      { ...valid, venue: "Bar\nX" },
      { ...valid, venue: "v".repeat(121) },
      { ...valid, note: "n".repeat(501) },
      { ...valid, note: "a\u0000b" },
      { ...valid, startsAt: "2026-12-14T19:30+01:00" },
      { ...valid, startsAt: 1765740600000 },
      { ...valid, endsAt: "tomorrow" },
      { ...valid, placeId: "" },
      { title: "x", startsAt: valid.startsAt },
    ])
      expect(refused(bad), JSON.stringify(bad)).toBe(false);
  });

  it("the form's date and times become the place's wall-clock fields", () => {
    const form = { title: "Dinner", date: "2026-12-14", time: "19:30", endTime: "", placeId: "geonames:2267057", venue: "", note: "" };
    expect(planFormSchema.parse(form)).toEqual({
      title: "Dinner",
      startsAt: "2026-12-14T19:30",
      endsAt: null,
      placeId: "geonames:2267057",
      venue: null,
      note: null,
    });
    expect(planFormSchema.parse({ ...form, endTime: "22:00" }).endsAt).toBe("2026-12-14T22:00");
    // An end before the start is the next day's: drinks from 22:00 to 01:00, across a month and a year.
    expect(planFormSchema.parse({ ...form, time: "22:00", endTime: "01:00" }).endsAt).toBe("2026-12-15T01:00");
    expect(planFormSchema.parse({ ...form, date: "2026-12-31", time: "22:00", endTime: "01:00" }).endsAt).toBe("2027-01-01T01:00");
    expect(planFormSchema.parse({ ...form, date: "2028-02-28", time: "23:00", endTime: "00:30" }).endsAt).toBe("2028-02-29T00:30");
    // The same time is no end, and an end just before the start a slip, not a day out: the server
    // says the end must be after the start.
    expect(planFormSchema.parse({ ...form, endTime: "19:30" }).endsAt).toBe("2026-12-14T19:30");
    expect(planFormSchema.parse({ ...form, endTime: "19:00" }).endsAt).toBe("2026-12-14T19:00");
    expect(planFormSchema.parse({ ...form, endTime: "07:30" }).endsAt).toBe("2026-12-15T07:30");
    expect(planFormSchema.parse({ ...form, endTime: "07:31" }).endsAt).toBe("2026-12-14T07:31");
    expect(planFormSchema.parse({ ...form, date: "2026-13-45", endTime: "01:00" }).endsAt).toBe("2026-13-45T01:00");
    expect(planFormSchema.safeParse({ ...form, time: "7pm" }).success).toBe(false);
    expect(planFormSchema.safeParse({ ...form, placeId: "" }).success).toBe(false);
  });

  it("sends a place typed by hand (the search down) with the zone chosen for it, never with a place id", () => {
    const form = { title: "Dinner", date: "2026-12-14", time: "19:30", endTime: "", venue: "", note: "" };
    const byHand = { ...form, placeId: "", placeName: "Café Luso", timeZone: "Europe/Lisbon" };
    expect(planFormSchema.parse(byHand)).toEqual({
      title: "Dinner",
      startsAt: "2026-12-14T19:30",
      endsAt: null,
      placeName: "Café Luso",
      timeZone: "Europe/Lisbon",
      venue: null,
      note: null,
    });
    const noZone = planFormSchema.safeParse({ ...byHand, timeZone: "" });
    expect(noZone.error?.issues.map((issue) => issue.path.join("."))).toEqual(["timeZone"]);
    // A place chosen from the search wins over text left from typing: only its id is sent.
    expect(planFormSchema.parse({ ...byHand, placeId: "geonames:2267057", placeName: "" })).not.toHaveProperty("placeName");
  });

  it("sends the search session the pick of the place ended with its id, and none with a place typed by hand", () => {
    const form = { title: "Dinner", date: "2026-12-14", time: "19:30", endTime: "", venue: "", note: "" };
    const sessionToken = "3519edfe-0f75-4a30-bfe4-7cbd89340b2c";
    const picked = planFormSchema.parse({ ...form, placeId: "geonames:2267057", sessionToken, placeName: "" });
    expect(proposePlanSchema.parse(picked)).toMatchObject({ placeId: "geonames:2267057", sessionToken });
    expect(changePlanSchema.parse(picked)).toMatchObject({ placeId: "geonames:2267057", sessionToken });
    expect(planFormSchema.parse({ ...form, placeId: "geonames:2267057", sessionToken: "" })).not.toHaveProperty("sessionToken");
    const byHand = { ...form, placeId: "", sessionToken, placeName: "Café Luso", timeZone: "Europe/Lisbon" };
    expect(planFormSchema.parse(byHand)).not.toHaveProperty("sessionToken");
    expect(proposePlanSchema.safeParse({ ...picked, sessionToken: "not a token" }).error?.issues[0]?.message).toBe(
      "session_token must be a UUID",
    );
  });

  it("changes only what is sent; null clears the end, venue and note", () => {
    expect(changePlanSchema.parse({ startsAt: "2026-12-14T20:00" })).toEqual({ startsAt: "2026-12-14T20:00" });
    expect(changePlanSchema.parse({ venue: null, endsAt: null })).toEqual({ venue: null, endsAt: null });
  });
});

describe("how a plan reads", () => {
  const plan = {
    startsAt: "2026-12-14T19:30:00+00:00",
    timeZone: "Europe/Lisbon",
    place: { name: "Lisbon", city: "Lisbon" },
    venue: "Time Out Market",
    answers: [
      { userId: "1", firstName: "Ana", answer: "going" as const },
      { userId: "2", firstName: "Rui", answer: "maybe" as const },
      { userId: "3", firstName: "Marisol", answer: "going" as const },
      { userId: "4", firstName: "Thaddeus", answer: null },
    ],
  };

  it("in 'Upcoming': 'Sat 14 Dec, 19:30 · Time Out Market, Lisbon · 3 of 4 going'", () => {
    expect(dayAndTime(plan.startsAt, plan.timeZone)).toBe("Mon 14 Dec, 19:30");
    const saturday = {
      ...plan,
      startsAt: "2026-12-12T19:30:00+00:00",
      answers: plan.answers.map((a) => ({ ...a, answer: (a.answer ?? "going") as PlanAnswer })),
    };
    saturday.answers[1] = { ...saturday.answers[1]!, answer: "cant" };
    expect(upcomingLine({ ...saturday, confirmed: false }, "Europe/Lisbon")).toBe(
      "Sat 12 Dec, 19:30 · Time Out Market, Lisbon · 3 of 4 going",
    );
    // The viewer's own clock beside the place's, and 'Confirmed' once everyone is going.
    const allGoing = { ...saturday, answers: saturday.answers.map(() => ({ answer: "going" as const })), confirmed: true };
    expect(upcomingLine(allGoing, "America/New_York")).toBe(
      "Sat 12 Dec, 19:30 in Lisbon, 14:30 for you · Time Out Market, Lisbon · 4 of 4 going · Confirmed",
    );
    expect(placeLine({ ...plan, venue: null })).toBe("Lisbon");
  });

  it("by first name, and 'Confirmed' only when everyone is going", () => {
    expect(answersLine(plan.answers)).toBe("Ana: going · Rui: maybe · Marisol: going · Thaddeus: not yet");
    expect(isConfirmed(plan.answers)).toBe(false);
    expect(isConfirmed(plan.answers.slice(0, 1))).toBe(true);
    expect(isConfirmed([])).toBe(false);
  });

  it("in the place's time, with the viewer's own beside it when their clock differs (Lisbon seen from Madrid and New York)", () => {
    expect(timeForViewer(plan, "Europe/Madrid")).toBe("19:30 in Lisbon, 20:30 for you");
    expect(timeForViewer(plan, "America/New_York")).toBe("19:30 in Lisbon, 14:30 for you");
    expect(timeForViewer({ ...plan, startsAt: "2026-12-14T23:30:00+00:00" }, "Europe/Madrid")).toBe("23:30 in Lisbon, 00:30 Tue for you");
    expect(timeForViewer(plan, "Europe/Lisbon")).toBe("19:30");
    expect(timeForViewer(plan, "Europe/London")).toBe("19:30");
    expect(timeForViewer(plan, null)).toBe("19:30");
  });
});
