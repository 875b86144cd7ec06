import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { couples } from "@/db/schema";
import { INTEREST_VALUES } from "@/lib/interests/catalogue";
import { loadOnboardingState } from "@/lib/onboarding/queries";
import { createUser } from "../support/api";

const stepOneDone = {
  occupation: "Engineer",
  interests: INTEREST_VALUES.slice(0, 5),
  avatarUrl: "/api/images/avatars/a.jpg",
  location: "Lisbon, Portugal",
  placeId: "geonames:2267057",
};

describe("loadOnboardingState", () => {
  it("starts a new user on step 1, role unknown, with nothing saved and the interest catalogue", async () => {
    const user = await createUser();
    const state = await loadOnboardingState(await getDb(), user.id);
    expect(state).toMatchObject({
      userId: user.id,
      role: "unknown",
      step: "step1",
      saved: { occupation: "", interests: [], avatarUrl: null, location: null },
    });
    expect(
      Object.values(state.interestCategories)
        .flat()
        .map((item) => item.value),
    ).toEqual(expect.arrayContaining([...INTEREST_VALUES]));
  });

  it("resumes on step 2 once step 1 is saved, with the saved answers to prefill step 1", async () => {
    const user = await createUser(stepOneDone);
    const state = await loadOnboardingState(await getDb(), user.id);
    expect(state).toMatchObject({
      step: "step2",
      saved: {
        occupation: "Engineer",
        interests: INTEREST_VALUES.slice(0, 5),
        avatarUrl: stepOneDone.avatarUrl,
        location: { location: "Lisbon, Portugal", placeId: "geonames:2267057" },
      },
    });
  });

  it("knows both partners of a couple: partner A is complete, partner B still owes step 1", async () => {
    const db = await getDb();
    const partnerA = await createUser(stepOneDone);
    const partnerB = await createUser();
    await db.insert(couples).values({ partner1Id: partnerA.id, partner2Id: partnerB.id, coupleName: "Ada & Grace" });

    expect(await loadOnboardingState(db, partnerA.id)).toMatchObject({ role: "partner_a", step: "complete" });
    expect(await loadOnboardingState(db, partnerB.id)).toMatchObject({ role: "partner_b", step: "step1" });
  });
});
