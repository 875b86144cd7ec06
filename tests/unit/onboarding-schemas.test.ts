import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { COUPLE_TYPES, currentCoupleTypes, tooManyPhotosMessage } from "@/lib/couples/rules";
import { coupleCreateSchema, coupleUpdateSchema } from "@/lib/couples/schemas";
import { profileCompletionPercentage, type CompletionUser } from "@/lib/profile/rules";
import { profileCompletionSchema } from "@/lib/profile/schemas";
import { step1Schema, step2Schema } from "@/lib/onboarding/schemas";
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
    expect(messages(step1Schema, { ...step1, locationName: undefined })).toEqual([
      "Please select a location from the dropdown suggestions",
    ]);
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
    expect(messages(step1Schema, { ...step1, interests: INTEREST_VALUES.slice(0, 26) })).toEqual([
      "Please select no more than 25 interests",
    ]);
  });

  it("refuses interests that are not in the catalogue", () => {
    expect(messages(step1Schema, { ...step1, interests: [...INTEREST_VALUES.slice(0, 5), "knitting"] })).toEqual([
      "Please select interests from the list",
    ]);
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

  it.each([
    ["a line break", "Ada\nBcc: victim@example.com"],
    ["a carriage return", "Ada\r& Grace"],
    ["a tab", "Ada\t& Grace"],
    ["a NUL", "Ada\u0000Grace"],
    ["an escape sequence", "Ada \u001b[31m& Grace"],
    ["DEL", "Ada\u007f& Grace"],
    ["a C1 control", "Ada\u0085& Grace"],
    ["a Unicode line separator", "Ada\u2028& Grace"],
  ])("refuses a couple name with %s, in step 2 and the JSON couple calls alike", (_case, name) => {
    const message = "Couple name cannot contain line breaks or control characters";
    expect(messages(step2Schema, { ...step2, couple_name: name })).toEqual([message]);
    expect(messages(coupleCreateSchema, { coupleName: name, coupleTypes: step2.coupleTypes, bio: step2.bio })).toEqual([message]);
  });

  it("keeps names with accents, emoji and symbols, and trims surrounding line breaks", () => {
    for (const name of ["Zoë & Ângelo", "Ada 💛 Grace", "The Smiths (Lisbon)"])
      expect(step2Schema.parse({ ...step2, couple_name: name }).couple_name).toBe(name);
    expect(step2Schema.parse({ ...step2, couple_name: "\nAda & Grace\n" }).couple_name).toBe("Ada & Grace");
  });

  it("needs 1 to 3 of the current adventure styles", () => {
    expect(messages(step2Schema, { ...step2, coupleTypes: [] })).toEqual(["Please select at least one adventure style"]);
    expect(messages(step2Schema, { ...step2, coupleTypes: undefined })).toEqual(["Please select at least one adventure style"]);
    const four = COUPLE_TYPES.slice(0, 4).map((type) => type.value);
    expect(messages(step2Schema, { ...step2, coupleTypes: four })).toEqual(["Please select up to 3 adventure styles"]);
    expect(step2Schema.parse({ ...step2, coupleTypes: four.slice(0, 3) }).coupleTypes).toEqual(four.slice(0, 3));
  });

  it("refuses the older adventure style values", () => {
    expect(messages(step2Schema, { ...step2, coupleTypes: ["foodie_explorers"] })).toEqual([
      "Please select adventure styles from the list",
    ]);
  });

  it("needs a bio of 10 to 1000 characters after trimming", () => {
    expect(messages(step2Schema, { ...step2, bio: "  short   " })).toEqual(["Please share more about yourselves (at least 10 characters)"]);
    expect(step2Schema.safeParse({ ...step2, bio: "x".repeat(1000) }).success).toBe(true);
    expect(messages(step2Schema, { ...step2, bio: "x".repeat(1001) })).toEqual(["Bio is too long (maximum 1000 characters)"]);
  });
});

describe("coupleCreateSchema and coupleUpdateSchema", () => {
  const couple = {
    coupleName: " Ada & Grace ",
    coupleTypes: ["global_adventurers"],
    bio: "We love long walks and longer dinners.",
    placeId: "geonames:2267057",
  };

  it("accepts the spec's keys and the helper variant's couple_name, dropping client-side location details", () => {
    const parsed = coupleCreateSchema.parse({ ...couple, location: "Lisbon", latitude: 1, longitude: 2, city: "X", partner1Id: "someone" });
    expect(parsed).toEqual({
      coupleName: "Ada & Grace",
      coupleTypes: ["global_adventurers"],
      bio: couple.bio,
      placeId: "geonames:2267057",
    });
    const { coupleName: _name, ...rest } = couple;
    expect(coupleCreateSchema.parse({ ...rest, couple_name: "Helpers" }).coupleName).toBe("Helpers");
  });

  it("applies step 2's rules and messages to a new couple", () => {
    expect(messages(coupleCreateSchema, {})).toEqual([
      "Please enter your couple name",
      "Please select at least one adventure style",
      "Please share more about yourselves (at least 10 characters)",
    ]);
    expect(messages(coupleCreateSchema, { ...couple, coupleName: "x".repeat(101) })).toEqual([
      "Couple name must be no more than 100 characters",
    ]);
  });

  it("caps the extra photos at 5 and the interests at 25", () => {
    const urls = (n: number) => Array.from({ length: n }, (_, i) => `/api/images/couple-photo/${String(i).padStart(32, "0")}.jpg`);
    expect(coupleCreateSchema.parse({ ...couple, photos: urls(5) }).photos).toHaveLength(5);
    expect(messages(coupleCreateSchema, { ...couple, photos: urls(6) })).toEqual([tooManyPhotosMessage(6)]);
    expect(messages(coupleCreateSchema, { ...couple, photos: urls(8) })).toEqual([
      "You can only upload up to 5 photos. You currently have 8.",
    ]);
    expect(messages(coupleCreateSchema, { ...couple, interests: INTEREST_VALUES.slice(0, 26) })).toEqual([
      "Please select no more than 25 interests",
    ]);
  });

  it("makes every field optional for an update but checks the ones sent, and refuses an empty one", () => {
    expect(coupleUpdateSchema.parse({ bio: "Only the bio changes." })).toEqual({ bio: "Only the bio changes." });
    expect(messages(coupleUpdateSchema, { coupleTypes: [] })).toEqual(["Please select at least one adventure style"]);
    expect(messages(coupleUpdateSchema, {})).toEqual(["Nothing to update"]);
    expect(messages(coupleUpdateSchema, { status: "banned" })).toEqual(["Nothing to update"]);
  });
});

describe("profileCompletionSchema", () => {
  const userData = { firstName: "Ada", lastName: "Lovelace", dateOfBirth: "1990-05-17", occupation: "Engineer" };
  const coupleData = { coupleName: "Ada & Grace", coupleTypes: ["global_adventurers"], bio: "We love long walks and longer dinners." };

  it("accepts the spec's payload with bio and avatar left out", () => {
    expect(profileCompletionSchema.parse({ userData, coupleData })).toEqual({ userData, coupleData });
  });

  it("names the missing fields of a missing part with their paths", () => {
    const issues = profileCompletionSchema.safeParse({ coupleData }).error!.issues;
    expect(issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["userData.firstName", "First name is required"],
      ["userData.lastName", "Last name is required"],
      ["userData.dateOfBirth", "Please enter your date of birth"],
      ["userData.occupation", "Occupation is required"],
    ]);
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
  const bare: CompletionUser = {
    firstName: "Ada",
    lastName: "Lovelace",
    dateOfBirth: "1990-05-17",
    bio: null,
    interests: [],
    avatarUrl: null,
  };

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
