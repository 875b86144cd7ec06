import { describe, expect, it } from "vitest";
import { INTEREST_VALUES } from "@/lib/interests/catalogue";
import { COUPLE_MESSAGES } from "@/lib/couples/rules";
import { INTEREST_MESSAGES } from "@/lib/interests/rules";
import { LOCATION_REQUIRED_MESSAGE } from "@/lib/locations/rules";
import { PROFILE_MESSAGES } from "@/lib/profile/rules";
import { saveErrorMessage, step1Errors, step2Errors } from "@/lib/onboarding/step-checks";

/** The messages of the steps' fields, from their owners. */
const MESSAGES = { ...PROFILE_MESSAGES, ...INTEREST_MESSAGES, ...COUPLE_MESSAGES, locationRequired: LOCATION_REQUIRED_MESSAGE };

describe("step 1 checks", () => {
  const lisbon = { location: "Lisbon, Portugal", placeId: "geonames:2267057" };
  const complete = { hasPhoto: true, location: lisbon, occupation: "Engineer", interests: INTEREST_VALUES.slice(0, 5) };

  it("passes a complete step", () => {
    expect(step1Errors(complete)).toEqual({});
  });

  it("lists every problem of an empty form in the spec's order: photo, location, occupation, interests", () => {
    const errors = step1Errors({ hasPhoto: false, location: null, occupation: "", interests: [] });
    expect(Object.entries(errors)).toEqual([
      ["userImage", MESSAGES.photoRequired],
      ["location", MESSAGES.locationRequired],
      ["occupation", MESSAGES.occupationRequired],
      ["interests", MESSAGES.interestsTooFew],
    ]);
  });

  it("refuses a typed location without a place id", () => {
    expect(step1Errors({ ...complete, location: { location: "Somewhere", placeId: "" } })).toEqual({ location: MESSAGES.locationRequired });
  });

  it("bounds occupation and interests with the shared rules", () => {
    expect(step1Errors({ ...complete, occupation: "x".repeat(101) })).toEqual({ occupation: MESSAGES.occupationTooLong });
    expect(step1Errors({ ...complete, interests: INTEREST_VALUES.slice(0, 4) })).toEqual({ interests: MESSAGES.interestsTooFew });
  });
});

describe("step 2 checks", () => {
  const complete = {
    couple_name: "Ada & Grace",
    hasMainPhoto: true,
    coupleTypes: ["global_adventurers"],
    bio: "We love long walks.",
    extraPhotoCount: 0,
  };

  it("passes a complete step", () => {
    expect(step2Errors(complete)).toEqual({});
  });

  it("lists every problem of an empty form in the spec's order: name, main photo, styles, bio", () => {
    const errors = step2Errors({ couple_name: " ", hasMainPhoto: false, coupleTypes: [], bio: "", extraPhotoCount: 0 });
    expect(Object.entries(errors)).toEqual([
      ["couple_name", MESSAGES.coupleNameRequired],
      ["coupleProfileImage", MESSAGES.mainPhotoRequired],
      ["coupleTypes", MESSAGES.coupleTypesTooFew],
      ["bio", MESSAGES.bioTooShort],
    ]);
  });

  it("bounds name, styles, bio and extra photos", () => {
    expect(step2Errors({ ...complete, couple_name: "x".repeat(101) })).toEqual({ couple_name: MESSAGES.coupleNameTooLong });
    expect(
      step2Errors({ ...complete, coupleTypes: ["global_adventurers", "culture_curators", "mindful_adventurers", "career_climbers"] }),
    ).toEqual({
      coupleTypes: MESSAGES.coupleTypesTooMany,
    });
    expect(step2Errors({ ...complete, bio: "x".repeat(1001) })).toEqual({ bio: MESSAGES.bioTooLong });
    expect(step2Errors({ ...complete, extraPhotoCount: 6 })).toEqual({
      couplePhotos: "You can only upload up to 5 photos. You currently have 6.",
    });
  });
});

describe("save error texts", () => {
  it("uses the step's default text", () => {
    expect(saveErrorMessage("step1", "Upload failed with status 500")).toBe("Failed to save your information. Please try again.");
    expect(saveErrorMessage("step2", "Upload failed - network error")).toBe("Failed to save your couple profile. Please try again.");
  });

  it("chooses by keyword: validation, timeout, file or image", () => {
    expect(saveErrorMessage("step1", "The request body must be multipart/form-data.", "VALIDATION_ERROR")).toBe(
      "Please check that all information is filled out correctly.",
    );
    expect(saveErrorMessage("step2", "Validation failed")).toBe("Please check that all information is filled out correctly.");
    expect(saveErrorMessage("step1", "Gateway timeout")).toBe("The request timed out. Please check your connection and try again.");
    expect(saveErrorMessage("step2", "Images must be 10 MB or smaller.", "VALIDATION_ERROR")).toBe(
      "There was an issue uploading your images. Please try again.",
    );
    expect(saveErrorMessage("step1", "file could not be stored")).toBe("There was an issue uploading your images. Please try again.");
  });

  it("keeps the server's own text for errors with a code of their own", () => {
    const mapsDown = "Unable to get location details from the maps service. Please try selecting your location again.";
    expect(saveErrorMessage("step1", mapsDown, "PLACES_SERVICE_FAILED")).toBe(mapsDown);
    expect(saveErrorMessage("step2", "Something went wrong on our side.", "INTERNAL_ERROR")).toBe(
      "Failed to save your couple profile. Please try again.",
    );
  });
});
