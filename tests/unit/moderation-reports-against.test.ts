import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ReportsAgainst } from "@/components/moderation/ReportsAgainst";
import type { CoupleRecord } from "@/lib/safety/couple-record";

const render = (reports: CoupleRecord["reports"]) => renderToStaticMarkup(createElement(ReportsAgainst, { reports }));

describe("the reports against a couple on its moderator page", () => {
  it("says counts past the cap as the queue does ('100+'), and exact ones as they are", () => {
    expect(render([{ reason: "spam", reports: 100, couples: 100, capped: true }])).toBe(
      "<ul><li>spam: 100+ reports by 100+ couples</li></ul>",
    );
    expect(render([{ reason: "spam", reports: 1, couples: 1, capped: true }])).toContain("spam: 1+ reports by 1+ couples");
    expect(
      render([
        { reason: "spam", reports: 3, couples: 2, capped: false },
        { reason: "harassment", reports: 1, couples: 1, capped: false },
      ]),
    ).toBe("<ul><li>spam: 3 reports by 2 couples</li><li>harassment: 1 report by 1 couple</li></ul>");
    expect(render([])).toBe("<p>None.</p>");
  });
});
