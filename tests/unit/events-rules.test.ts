import { describe, expect, it } from "vitest";
import { EVENT_HORIZON_DAYS, eventValues, formatPrice, parseStartsAt } from "@/lib/events/rules";
import { createEventSchema, eventFormSchema } from "@/lib/events/schemas";

describe("event rules", () => {
  it("reads ISO date-times, a zone-less one as UTC, and nothing else", () => {
    expect(parseStartsAt("2030-05-01T18:30")?.toISOString()).toBe("2030-05-01T18:30:00.000Z");
    expect(parseStartsAt("2030-05-01T18:30:00+02:00")?.toISOString()).toBe("2030-05-01T16:30:00.000Z");
    expect(parseStartsAt("2030-05-01")).toBeNull();
    expect(parseStartsAt("tomorrow")).toBeNull();
    expect(parseStartsAt("2030-13-45T99:99")).toBeNull();
    // A day its month does not have is refused, not rolled over (30 February was 2 March).
    expect(parseStartsAt("2027-02-30T10:00")).toBeNull();
    expect(parseStartsAt("2027-04-31T10:00:00+02:00")).toBeNull();
    expect(parseStartsAt("2028-02-29T10:00")?.toISOString()).toBe("2028-02-29T10:00:00.000Z");
  });

  it("formats prices, free at 0", () => {
    expect(formatPrice(0, "EUR")).toBe("Free");
    expect(formatPrice(2500, "EUR")).toBe("€25.00");
    expect(formatPrice(1999, "GBP")).toBe("£19.99");
  });

  it("the draft schema wants a start in the next two years and whole numbers", () => {
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
    const good = {
      title: "Tasting",
      startsAt: inDays(30),
      placeId: "geonames:1",
      capacity: 10,
      priceCents: 0,
      currency: "EUR",
      description: "A long enough description.",
    };
    expect(createEventSchema.safeParse(good).success).toBe(true);
    expect(createEventSchema.safeParse({ ...good, startsAt: "2001-01-01T10:00:00Z" }).error?.issues[0]?.message).toBe(
      "Please choose a date and time in the future",
    );
    expect(createEventSchema.safeParse({ ...good, startsAt: inDays(EVENT_HORIZON_DAYS - 1) }).success).toBe(true);
    expect(createEventSchema.safeParse({ ...good, startsAt: inDays(EVENT_HORIZON_DAYS + 1) }).error?.issues[0]?.message).toBe(
      "Please choose a date within the next two years",
    );
    expect(createEventSchema.safeParse({ ...good, startsAt: "9999-12-31T23:59" }).success).toBe(false);
    expect(createEventSchema.safeParse({ ...good, capacity: "10" }).success).toBe(false);
    expect(createEventSchema.safeParse({ ...good, priceCents: 10.5 }).success).toBe(false);
    expect(createEventSchema.safeParse({ ...good, title: "Line\nbreak" }).success).toBe(false);
  });

  it("the form sends the search session the pick of the place ended, and none when it has none", () => {
    const sessionToken = "3519edfe-0f75-4a30-bfe4-7cbd89340b2c";
    const form = {
      title: "Tasting",
      startsAt: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 16),
      placeId: "geonames:1",
      sessionToken,
      capacity: "10",
      price: "0",
      currency: "EUR",
      description: "A long enough description.",
    };
    expect(eventFormSchema.safeParse(form).success).toBe(true);
    expect(createEventSchema.parse(eventValues(form))).toMatchObject({ placeId: "geonames:1", sessionToken });
    expect(eventValues({ ...form, sessionToken: "" })).not.toHaveProperty("sessionToken");
    expect(createEventSchema.safeParse({ ...eventValues(form), sessionToken: "not a token" }).error?.issues[0]?.message).toBe(
      "session_token must be a UUID",
    );
  });
});
