import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { searchPlaces } from "@/lib/locations/search";
import { PlacesServiceError, type PlacesProvider } from "@/lib/places";

const failing: PlacesProvider = {
  name: "google",
  autocomplete: async () => {
    throw new PlacesServiceError("HTTP 503");
  },
  details: async () => {
    throw new PlacesServiceError("HTTP 503");
  },
};

describe("when the places service fails", () => {
  it("answers PLACES_SERVICE_FAILED (502) with the spec's search message, not a 500", async () => {
    const error = await searchPlaces({ query: "lisbon", limit: 5 }, failing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: "PLACES_SERVICE_FAILED",
      status: 502,
      message: "Unable to search locations. The service is temporarily unavailable. Please try again later.",
    });
  });

  it("does not search at all below 2 characters", async () => {
    await expect(searchPlaces({ query: "l", limit: 5 }, failing)).resolves.toEqual([]);
  });

  it("does not send a query with no letter or digit to the provider: no place is named by punctuation", async () => {
    for (const query of ["!!", "--", "  ?! ", "..."]) await expect(searchPlaces({ query, limit: 5 }, failing)).resolves.toEqual([]);
  });
});

describe("a search session", () => {
  it("hands the session token to the provider's autocomplete", async () => {
    const asked: unknown[] = [];
    const recording: PlacesProvider = {
      name: "google",
      autocomplete: async (...args) => (asked.push(args), []),
      details: async () => null,
    };
    await searchPlaces({ query: "lisbon", limit: 5, sessionToken: "3519edfe-0f75-4a30-bfe4-7cbd89340b2c" }, recording);
    expect(asked).toEqual([["lisbon", 5, "3519edfe-0f75-4a30-bfe4-7cbd89340b2c"]]);
  });
});
