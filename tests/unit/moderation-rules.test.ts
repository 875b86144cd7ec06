import { describe, expect, it } from "vitest";
import { mayModerate } from "@/lib/membership/roles";
import { GUIDELINES, guidelineLabel, restrictedText, restrictionEnd, sanctionNotice, SANCTION_KINDS } from "@/lib/safety/rules";

describe("moderation rules", () => {
  it("moderators and admins moderate; members do not", () => {
    expect(mayModerate("moderator")).toBe(true);
    expect(mayModerate("admin")).toBe(true);
    expect(mayModerate("member")).toBe(false);
  });

  it("names the reasons by the community guidelines' headings", () => {
    expect(GUIDELINES.map((g) => g.label)).toEqual([
      "Harassment",
      "Hate",
      "Sexual content",
      "Someone else's private details",
      "Spam and scams",
    ]);
    expect(guidelineLabel("spam")).toBe("Spam and scams");
  });

  it("a restriction ends its days later, and says why and until when (or until a moderator decides)", () => {
    const from = new Date("2026-11-29T08:00:00Z");
    expect(restrictionEnd(from, 7).toISOString()).toBe("2026-12-06T08:00:00.000Z");
    expect(restrictedText({ reason: "hate", endsAt: "2026-12-06T08:00:00.000Z" })).toBe(
      "Your couple is restricted until 6 December 2026 at 08:00 UTC (Hate): you can read, but not say hello, send messages, post or reply.",
    );
    expect(restrictedText({ reason: "spam", endsAt: null })).toMatch(
      /^Your couple is restricted until a moderator has looked at the reports/,
    );
  });

  it("every notice names the guideline and how to appeal", () => {
    for (const kind of SANCTION_KINDS) {
      const notice = sanctionNotice({ kind, reason: "harassment", endsAt: kind === "restrict" ? "2026-12-06T08:00:00.000Z" : null });
      expect(notice.message).toContain("Harassment");
      expect(notice.message).toContain("/safety");
    }
  });
});
