import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  COUPLE_TYPES,
  currentCoupleTypes,
  profileCompletionPercentage,
  step1Schema,
  step2Schema,
  tooManyPhotosMessage,
  type CompletionUser,
} from "@/lib/onboarding/rules";
import { INTEREST_VALUES } from "@/lib/interests/catalogue";

const step1 = {
  occupation: "  Engineer ",
  locationName: "Lisbon, Portugal",
  locationPlaceId: "geonames:2267057",
  interests: INTEREST_VALUES.slice(0, 5),
};
const step2 = { couple_name: " Ada & Grace ", coupleTypes: ["global_adventurers"], bio: "We love long walks and longer dinners." };

/** Messages of a failed parse, in order. */
const messages = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error?.issues.map((issue) => issue.message) ?? [];

describe("step1Schema", () => {
  it("accepts a complete step 1 and trims the text", () => {
    const parsed = step1Schema.parse(step1);
    expect(parsed.occupation).toBe("Engineer");
    expect(parsed.interests).toEqual(INTEREST_VALUES.slice(0, 5));
  });

  it("asks for a location from the dropdown when the place id or name is missing", () => {
    expect(messages(step1Schema, { ...step1, locationPlaceId: "" })).toEqual(["Please select a location from the dropdown suggestions"]);
    expect(messages(step1Schema, { ...step1, locationName: undefined })).toEqual(["Please select a location from the dropdown suggestions"]);
  });

  it("checks location before occupation before interests, as the spec orders them", () => {
    expect(messages(step1Schema, { interests: [] })).toEqual([
      "Please select a location from the dropdown suggestions",
      "Please select a location from the dropdown suggestions",
      "Occupation is required",
      "Please select at least 5 interests",
    ]);
  });

  it("requires an occupation of 1 to 100 characters after trimming", () => {
    expect(messages(step1Schema, { ...step1, occupation: "   " })).toEqual(["Occupation is required"]);
    expect(step1Schema.safeParse({ ...step1, occupation: "x".repeat(100) }).success).toBe(true);
    expect(messages(step1Schema, { ...step1, occupation: "x".repeat(101) })).toEqual(["Occupation must be no more than 100 characters"]);
  });

  it("needs 5 distinct interests: repeats count once", () => {
    expect(messages(step1Schema, { ...step1, interests: INTEREST_VALUES.slice(0, 4) })).toEqual(["Please select at least 5 interests"]);
    const repeated = [...INTEREST_VALUES.slice(0, 4), INTEREST_VALUES[0]];
    expect(messages(step1Schema, { ...step1, interests: repeated })).toEqual(["Please select at least 5 interests"]);
  });

  it("accepts 25 distinct interests of the catalogue and refuses 26", () => {
    expect(step1Schema.parse({ ...step1, interests: INTEREST_VALUES.slice(0, 25) }).interests).toHaveLength(25);
    expect(messages(step1Schema, { ...step1, interests: INTEREST_VALUES.slice(0, 26) })).toEqual(["Please select no more than 25 interests"]);
  });

  it("refuses interests that are not in the catalogue", () => {
    expect(messages(step1Schema, { ...step1, interests: [...INTEREST_VALUES.slice(0, 5), "knitting"] })).toEqual(["Please select interests from the list"]);
  });
});

describe("step2Schema", () => {
  it("accepts a complete step 2 and trims the couple name", () => {
    expect(step2Schema.parse(step2).couple_name).toBe("Ada & Grace");
  });

  it("requires a couple name of at most 100 characters", () => {
    expect(messages(step2Schema, { ...step2, couple_name: " " })).toEqual(["Please enter your couple name"]);
    expect(messages(step2Schema, { ...step2, couple_name: undefined })).toEqual(["Please enter your couple name"]);
    expect(messages(step2Schema, { ...step2, couple_name: "x".repeat(101) })).toEqual(["Couple name must be no more than 100 characters"]);
  });

  it("needs 1 to 3 of the current adventure styles", () => {
    expect(messages(step2Schema, { ...step2, coupleTypes: [] })).toEqual(["Please select at least one adventure style"]);
    expect(messages(step2Schema, { ...step2, coupleTypes: undefined })).toEqual(["Please select at least one adventure style"]);
    const four = COUPLE_TYPES.slice(0, 4).map((type) => type.value);
    expect(messages(step2Schema, { ...step2, coupleTypes: four })).toEqual(["Please select up to 3 adventure styles"]);
    expect(step2Schema.parse({ ...step2, coupleTypes: four.slice(0, 3) }).coupleTypes).toEqual(four.slice(0, 3));
  });

  it("refuses the older adventure style values", () => {
    expect(messages(step2Schema, { ...step2, coupleTypes: ["foodie_explorers"] })).toEqual(["Please select adventure styles from the list"]);
  });

  it("needs a bio of 10 to 1000 characters after trimming", () => {
    expect(messages(step2Schema, { ...step2, bio: "  short   " })).toEqual(["Please share more about yourselves (at least 10 characters)"]);
    expect(step2Schema.safeParse({ ...step2, bio: "x".repeat(1000) }).success).toBe(true);
    expect(messages(step2Schema, { ...step2, bio: "x".repeat(1001) })).toEqual(["Bio is too long (maximum 1000 characters)"]);
  });
});

describe("adventure styles", () => {
  it("lists the six current styles with their labels", () => {
    expect(COUPLE_TYPES.map((type) => `${type.value}:${type.label}`)).toEqual([
      "global_adventurers:Global Adventurers",
      "culture_curators:Culture Curators",
      "mindful_adventurers:Mindful Adventurers",
      "community_connectors:Community Connectors",
      "culinary_connoisseurs:Culinary Connoisseurs",
      "career_climbers:Career Climbers",
    ]);
  });

  it("drops stale and repeated values from a restored draft", () => {
    expect(currentCoupleTypes(["adventure_first", "career_climbers", "career_climbers", "tech_innovators"])).toEqual(["career_climbers"]);
  });

  it("words the extra-photo overflow with the current count", () => {
    expect(tooManyPhotosMessage(6)).toBe("You can only upload up to 5 photos. You currently have 6.");
  });
});

describe("profileCompletionPercentage", () => {
  const bare: CompletionUser = { firstName: "Ada", lastName: "Lovelace", dateOfBirth: "1990-05-17", bio: null, interests: [], avatarUrl: null };

  it("gives 33 for the basic profile alone", () => {
    expect(profileCompletionPercentage(bare, null)).toBe(33);
  });

  it("gives nothing for the basics when one of them is missing", () => {
    expect(profileCompletionPercentage({ ...bare, dateOfBirth: null }, null)).toBe(0);
  });

  it("adds 33 for any one of bio, interests or photo", () => {
    expect(profileCompletionPercentage({ ...bare, bio: "Hello there" }, null)).toBe(66);
    expect(profileCompletionPercentage({ ...bare, interests: ["travel"] }, null)).toBe(66);
    expect(profileCompletionPercentage({ ...bare, avatarUrl: "/api/images/avatar/x.jpg", bio: "Hi", interests: ["music"] }, null)).toBe(66);
  });

  it("adds 34 only for an active couple, reaching 100", () => {
    const full = { ...bare, avatarUrl: "/api/images/avatar/x.jpg" };
    expect(profileCompletionPercentage(full, { status: "active" })).toBe(100);
    expect(profileCompletionPercentage(full, { status: "pending" })).toBe(66);
  });
});
