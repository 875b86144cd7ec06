import { describe, expect, it } from "vitest";
import { profileCompletion } from "@/lib/dashboard/rules";
import { profileCompletionPercentage } from "@/lib/profile/rules";

const full = { firstName: "Ana", lastName: "Silva", dateOfBirth: "1990-01-01", bio: null, interests: ["travel"], avatarUrl: null };

describe("profile completion (spec section 5)", () => {
  it("is 33 + 33 + 34", () => {
    expect(profileCompletion(full, { status: "active" })).toMatchObject({ percentage: 100, complete: true, missing: [] });
    expect(profileCompletion({ ...full, interests: [] }, { status: "active" }).percentage).toBe(67);
    expect(profileCompletion(full, null).percentage).toBe(66);
    expect(profileCompletion({ ...full, lastName: "" }, { status: "active" }).percentage).toBe(67);
    expect(profileCompletion({ ...full, firstName: null, interests: [] }, null).percentage).toBe(0);
  });

  it("any one of bio, interests or photo counts; a blank bio does not", () => {
    const none = { ...full, interests: [] };
    expect(profileCompletion({ ...none, bio: "  " }, { status: "active" }).percentage).toBe(67);
    expect(profileCompletion({ ...none, bio: "We love trains" }, { status: "active" }).percentage).toBe(100);
    expect(profileCompletion({ ...none, avatarUrl: "/api/images/x" }, { status: "active" }).percentage).toBe(100);
  });

  it("says what is missing and links to fix it", () => {
    const result = profileCompletion({ ...full, interests: [] }, null);
    expect(result.missing.map((step) => step.fix)).toEqual([
      { text: "Add a bio, interests or a photo", href: "/settings" },
      { text: "Create your couple profile", href: "/onboarding" },
    ]);
    expect(profileCompletion(full, { status: "suspended" }).missing.map((step) => step.fix.href)).toEqual(["/profile"]);
  });

  it("the card's done steps add up to the percentage the API reports, for every combination", () => {
    const users = [
      full,
      { ...full, lastName: null },
      { ...full, interests: [], bio: " " },
      { ...full, interests: null, avatarUrl: "/api/images/x" },
      { ...full, dateOfBirth: null, interests: [] },
    ];
    for (const user of users) {
      for (const couple of [null, { status: "active" }, { status: "suspended" }]) {
        const card = profileCompletion(user, couple);
        expect(card.percentage).toBe(profileCompletionPercentage(user, couple));
        expect(card.steps.filter((step) => step.done).reduce((sum, step) => sum + step.points, 0)).toBe(card.percentage);
      }
    }
  });
});
