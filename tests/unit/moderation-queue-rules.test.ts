import { describe, expect, it } from "vitest";
import { REPORT_REASON_VALUES } from "@/db/schema/forum-values";
import { countText, QUEUE_COUNT_CAP, reasonsByCount, reportedByText, upToCap } from "@/lib/safety/rules";

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
    expect(QUEUE_COUNT_CAP).toBe(100);
    expect(countText(99, false)).toBe("99");
    expect(countText(100, false)).toBe("100");
    expect(countText(100, true)).toBe("100+");
    expect(countText(101, true)).toBe("100+");
    expect(countText(51, true)).toBe("51+");
    expect(reportedByText({ reports: 100, couples: 100, capped: true, firstReporter: "Ana" })).toBe(
      "100+ reports by 100+ couples, first by Ana",
    );
    expect(reportedByText({ reports: 100, couples: 60, firstReporter: "Ana" })).toBe("100 reports by 60 couples, first by Ana");
  });
  it("keeps a capped read's count (at most CAP + 1 rows) as exact up to the cap, the cap and capped past it", () => {
    expect(upToCap(0)).toEqual({ count: 0, capped: false });
    expect(upToCap(QUEUE_COUNT_CAP)).toEqual({ count: QUEUE_COUNT_CAP, capped: false });
    expect(upToCap(QUEUE_COUNT_CAP + 1)).toEqual({ count: QUEUE_COUNT_CAP, capped: true });
  });
});
