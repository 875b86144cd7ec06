import { describe, expect, it } from "vitest";
import { REPORT_REASON_VALUES } from "@/db/schema/forum-values";
import { countText, QUEUE_COUNT_CAP, reasonsByCount, reportedByText } from "@/lib/safety/rules";

describe("the moderation queue's row of a target", () => {
  it("lists its reasons the most given first, ties in the report dialog's order", () => {
    expect(
      reasonsByCount(
        [
          { reason: "other", count: 2 },
          { reason: "spam", count: 2 },
          { reason: "harassment", count: 5 },
          { reason: "inappropriate", count: 1 },
        ],
        REPORT_REASON_VALUES,
      ),
    ).toEqual([
      { reason: "harassment", count: 5 },
      { reason: "spam", count: 2 },
      { reason: "other", count: 2 },
      { reason: "inappropriate", count: 1 },
    ]);
  });

  it("says who reported it: one report as it always read, several counted by reports and couples", () => {
    expect(reportedByText({ reports: 1, couples: 1, firstReporter: "Lucia" })).toBe("reported by Lucia");
    expect(reportedByText({ reports: 2, couples: 1, firstReporter: "Lucia" })).toBe("2 reports by 1 couple, first by Lucia");
    expect(reportedByText({ reports: 100, couples: 60, firstReporter: "Ana" })).toBe("100 reports by 60 couples, first by Ana");
  });

  it("says a count past the cap as at least the cap's figure, and exact ones as they are", () => {
    expect(QUEUE_COUNT_CAP).toBe(1000);
    expect(countText(999, false)).toBe("999");
    expect(countText(1000, false)).toBe("1,000");
    expect(countText(1000, true)).toBe("1,000+");
    expect(countText(1001, true)).toBe("1,000+");
    expect(countText(412, true)).toBe("412+");
    expect(reportedByText({ reports: 1000, couples: 1000, capped: true, firstReporter: "Ana" })).toBe(
      "1,000+ reports by 1,000+ couples, first by Ana",
    );
    expect(reportedByText({ reports: 1000, couples: 600, firstReporter: "Ana" })).toBe("1,000 reports by 600 couples, first by Ana");
  });
});
