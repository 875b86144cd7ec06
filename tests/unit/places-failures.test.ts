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
});
