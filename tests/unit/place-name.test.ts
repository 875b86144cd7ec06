import { describe, expect, it } from "vitest";
import { placeName, placeParts } from "@/lib/locations/place-name";

describe("placeName: one way to write a place, each part once", () => {
  it("drops a region that repeats its city, whatever the case", () => {
    expect(placeName("Lisbon", "Lisbon", "Portugal")).toBe("Lisbon, Portugal");
    expect(placeName("Madrid", "madrid", "Spain")).toBe("Madrid, Spain");
    expect(placeName("Singapore", null, "Singapore")).toBe("Singapore");
  });

  it("keeps distinct parts in order and skips empty ones", () => {
    expect(placeName("Sintra", "Lisbon District", "Portugal")).toBe("Sintra, Lisbon District, Portugal");
    expect(placeName(null, "", "  ", undefined, "Portugal")).toBe("Portugal");
    expect(placeName()).toBe("");
  });

  it("reads a stored name's comma-separated pieces as parts (names written before the rule)", () => {
    expect(placeName("Lisbon, Lisbon, Portugal")).toBe("Lisbon, Portugal");
    expect(placeName("Rua Augusta 1, Lisbon, Lisbon, Portugal")).toBe("Rua Augusta 1, Lisbon, Portugal");
    expect(placeParts("Porto", "Porto, Portugal")).toEqual(["Porto", "Portugal"]);
  });
});
