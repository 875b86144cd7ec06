import { describe, expect, it } from "vitest";
import { initialStep, nextMove, previousStep, roleOf } from "@/lib/onboarding/router";

describe("onboarding router", () => {
  const couple = { partner1Id: "a", partner2Id: "b" };

  it("derives the role from the couple's partner ids", () => {
    expect(roleOf("a", couple)).toBe("partner_a");
    expect(roleOf("b", couple)).toBe("partner_b");
    expect(roleOf("c", couple)).toBe("unknown");
    expect(roleOf("a", null)).toBe("unknown");
    expect(roleOf("b", { partner1Id: "a", partner2Id: null })).toBe("unknown");
  });

  it("starts on step 1 by default, on step 2 for partner A whose step 1 is saved, and complete when the profile is", () => {
    expect(initialStep({ role: "unknown", profileComplete: false, step1Saved: false })).toBe("step1");
    expect(initialStep({ role: "unknown", profileComplete: false, step1Saved: true })).toBe("step2");
    expect(initialStep({ role: "partner_a", profileComplete: false, step1Saved: true })).toBe("step2");
    expect(initialStep({ role: "partner_b", profileComplete: false, step1Saved: true })).toBe("step1");
    expect(initialStep({ role: "partner_a", profileComplete: true, step1Saved: true })).toBe("complete");
    expect(initialStep({ role: "partner_b", profileComplete: true, step1Saved: false })).toBe("complete");
  });

  it("sends partner B from step 1 to the dashboard, replacing history, with the profile-check bypass", () => {
    expect(nextMove("step1", "partner_b")).toEqual({
      kind: "leave",
      to: "/dashboard?welcome=partner",
      replace: true,
      bypassProfileCheck: true,
    });
  });

  it("sends partner A (and an unknown role) from step 1 to step 2", () => {
    expect(nextMove("step1", "partner_a")).toEqual({ kind: "step", step: "step2" });
    expect(nextMove("step1", "unknown")).toEqual({ kind: "step", step: "step2" });
  });

  it("allows next on step 2 only to partner A, who goes on to invite the partner", () => {
    expect(nextMove("step2", "partner_a")).toMatchObject({ kind: "leave", to: "/invite-partner" });
    expect(nextMove("step2", "unknown")).toMatchObject({ kind: "leave", to: "/invite-partner" });
    expect(nextMove("step2", "partner_b")).toBeNull();
  });

  it("leaves a complete profile for the dashboard", () => {
    expect(nextMove("complete", "partner_a")).toMatchObject({ kind: "leave", to: "/dashboard", replace: true });
  });

  it("goes back only from step 2 to step 1", () => {
    expect(previousStep("step2")).toBe("step1");
    expect(previousStep("step1")).toBeNull();
    expect(previousStep("complete")).toBeNull();
  });
});
