import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PartnerVerifications } from "@/components/moderation/PartnerVerifications";
import type { PartnerVerification } from "@/lib/verification/queries";

const waiting = (pending: PartnerVerification["pending"]): PartnerVerification => ({
  userId: "u1",
  firstName: "Ana",
  status: "pending",
  submittedAt: "2026-11-29T10:00:00.000Z",
  decidedAt: null,
  refusal: null,
  pending,
});
const render = (partners: PartnerVerification[], own: boolean) =>
  renderToStaticMarkup(createElement(PartnerVerifications, { partners, own }));

describe("the partners' photo verification on a couple's moderator page", () => {
  it("shows a waiting selfie and the way to decide it; on the reader's own couple the state alone, and who decides", () => {
    const theirs = render([waiting({ pose: { id: "left_ear", label: "Touch your left ear" }, selfieUrl: "/selfie-url" })], false);
    expect(theirs).toContain("Waiting for a moderator (sent on 29 November 2026)");
    expect(theirs).toContain('src="/selfie-url"');
    expect(theirs).toContain("Decide in the verification queue");
    expect(theirs).not.toContain("your own couple");

    const mine = render([waiting(null)], true);
    expect(mine).toContain("This is your own couple: another moderator will decide its selfies.");
    expect(mine).toContain("Waiting for a moderator (sent on 29 November 2026)");
    expect(mine).not.toContain("<img");
    expect(mine).not.toContain("verification queue");
  });

  it("on the reader's own couple, a partner's refusal without its reason, which was told to that partner alone", () => {
    const refused = { ...waiting(null), status: "refused", decidedAt: "2026-11-30T10:00:00.000Z" } as const;
    expect(render([refused], true)).toContain("Refused on 30 November 2026</p>");
    expect(render([refused], false)).toContain("Refused on 30 November 2026: no reason kept");
    const told = { ...refused, refusal: { reason: "face", label: "Your face is not clearly visible" } };
    expect(render([told], true)).toContain("Refused on 30 November 2026: Your face is not clearly visible");
  });
});
