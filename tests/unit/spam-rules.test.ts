import { describe, expect, it } from "vitest";
import {
  AUTO_RESTRICT_COUPLES,
  HELD_NOTE_COUPLES,
  holdsNextRequest,
  LIMITED_REQUESTS_PER_DAY,
  NEW_COUPLE_DAYS,
  normalizeNote,
  requestsPerDay,
  restrictsByReports,
  TRUSTED_REQUESTS_PER_DAY,
  trustLevel,
  linksArePlain,
  PLAIN_LINK_FIRST_MESSAGES,
} from "@/lib/safety/spam-rules";

const DAY = 24 * 60 * 60 * 1000;
const now = new Date("2026-11-29T08:00:00Z");
const aged = (days: number) => new Date(now.getTime() - days * DAY);

describe("held hello requests", () => {
  it("compares notes after normalising case, spaces and digits", () => {
    expect(normalizeNote("Hi there, call 555 1234!")).toBe(normalizeNote("hi  THERE,   call 999 0000!"));
    expect(normalizeNote("Hi there")).not.toBe(normalizeNote("Hi where"));
  });

  it("holds the next request once the same note went to more than 5 couples (the 6th is held)", () => {
    expect(HELD_NOTE_COUPLES).toBe(5);
    expect(holdsNextRequest(4)).toBe(false);
    expect(holdsNextRequest(5)).toBe(true);
  });
});

describe("restriction by reports", () => {
  it("restricts at 3 different reporting couples, not at 2", () => {
    expect(AUTO_RESTRICT_COUPLES).toBe(3);
    expect(restrictsByReports(2)).toBe(false);
    expect(restrictsByReports(3)).toBe(true);
  });
});

describe("trust levels", () => {
  it("a couple under 7 days old is new; at 7 days it is trusted", () => {
    expect(NEW_COUPLE_DAYS).toBe(7);
    expect(trustLevel({ createdAt: new Date(aged(7).getTime() + 1), sent: 0, accepted: 0 }, now)).toBe("new");
    expect(trustLevel({ createdAt: aged(7), sent: 0, accepted: 0 }, now)).toBe("trusted");
  });

  it("is limited with at least 10 sent and under 10% accepted in 30 days", () => {
    const old = aged(60);
    expect(trustLevel({ createdAt: old, sent: 9, accepted: 0 }, now)).toBe("trusted");
    expect(trustLevel({ createdAt: old, sent: 10, accepted: 0 }, now)).toBe("limited");
    expect(trustLevel({ createdAt: old, sent: 10, accepted: 1 }, now)).toBe("trusted");
    expect(trustLevel({ createdAt: old, sent: 20, accepted: 1 }, now)).toBe("limited");
    expect(trustLevel({ createdAt: old, sent: 20, accepted: 2 }, now)).toBe("trusted");
  });

  it("new and limited couples send 3 requests a day, trusted ones 10", () => {
    expect(requestsPerDay("new")).toBe(LIMITED_REQUESTS_PER_DAY);
    expect(requestsPerDay("limited")).toBe(3);
    expect(requestsPerDay("trusted")).toBe(TRUSTED_REQUESTS_PER_DAY);
    expect(TRUSTED_REQUESTS_PER_DAY).toBe(10);
  });
});

describe("links of low-trust couples", () => {
  it("are plain text in a conversation's first 5 messages from a new or limited couple, clickable from the 6th and from trusted couples", () => {
    expect(PLAIN_LINK_FIRST_MESSAGES).toBe(5);
    for (const level of ["new", "limited"] as const) {
      expect(linksArePlain(level, 1)).toBe(true);
      expect(linksArePlain(level, 5)).toBe(true);
      expect(linksArePlain(level, 6)).toBe(false);
    }
    expect(linksArePlain("trusted", 1)).toBe(false);
  });
});
