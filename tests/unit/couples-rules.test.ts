import { describe, expect, it } from "vitest";
import { coupleBadge, coupleInterests, shownCoupleLocation } from "@/lib/couples/rules";
import type { PrivacyLevel, StoredLocation } from "@/lib/locations/privacy";

describe("coupleBadge", () => {
  it("is 'Verified Couple' only when active and both partners are verified", () => {
    expect(coupleBadge({ status: "active", partnerAVerified: true, partnerBVerified: true })).toBe("Verified Couple");
  });

  it.each([
    { status: "active", partnerAVerified: true, partnerBVerified: false },
    { status: "active", partnerAVerified: false, partnerBVerified: true },
    { status: "active", partnerAVerified: false, partnerBVerified: false },
    { status: "suspended", partnerAVerified: true, partnerBVerified: true },
    { status: "", partnerAVerified: true, partnerBVerified: true },
  ])("is 'Beta Member' for %j", (facts) => {
    expect(coupleBadge(facts)).toBe("Beta Member");
  });
});

describe("shownCoupleLocation", () => {
  const stored = (privacyLevel: PrivacyLevel, overrides: Partial<StoredLocation> = {}): StoredLocation => ({
    id: "loc",
    placeId: "geonames:1",
    displayLocation: "Rua Augusta 24, Lisbon",
    latitude: 38.71,
    longitude: -9.13,
    city: "Lisbon",
    state: "Lisbon District",
    country: "Portugal",
    privacyLevel,
    createdAt: new Date(0),
    updatedAt: new Date(0),
    ...overrides,
  });

  it.each([
    ["full", "Rua Augusta 24, Lisbon"],
    ["city", "Lisbon, Lisbon District, Portugal"],
    ["region", "Lisbon District, Portugal"],
    ["country", "Portugal"],
    ["hidden", null],
  ] as const)("shows others level %s as %j", (level, shown) => {
    expect(shownCoupleLocation(stored(level), "other", "Rua Augusta 24, Lisbon")).toBe(shown);
  });

  it.each(["full", "city", "region", "country", "hidden"] as const)(
    "shows the couple's own partners the chosen place at level %s",
    (level) => {
      expect(shownCoupleLocation(stored(level), "own", "Rua Augusta 24, Lisbon")).toBe("Rua Augusta 24, Lisbon");
    },
  );

  it("shows nothing rather than an empty text when the level's parts are unknown", () => {
    expect(shownCoupleLocation(stored("region", { state: null, country: null }), "other", null)).toBeNull();
    expect(shownCoupleLocation(stored("country", { country: null }), "other", null)).toBeNull();
  });

  it("without a stored location, shows the partners the couple's text and others nothing", () => {
    expect(shownCoupleLocation(null, "own", "Lisbon, Portugal")).toBe("Lisbon, Portugal");
    expect(shownCoupleLocation(null, "other", "Lisbon, Portugal")).toBeNull();
  });
});

describe("coupleInterests", () => {
  const item = (value: string) => ({ value, label: value.toUpperCase() });
  it("joins both partners' interests, A's first, marking the ones both chose", () => {
    expect(
      coupleInterests(
        [
          [item("a"), item("b")],
          [item("b"), item("c")],
        ],
        [],
      ),
    ).toEqual([
      { value: "a", label: "A", shared: false },
      { value: "b", label: "B", shared: true },
      { value: "c", label: "C", shared: false },
    ]);
  });
  it("marks nothing shared with one partner, and falls back to the couple's list when the partners have none", () => {
    expect(coupleInterests([[item("a")]], [item("z")])).toEqual([{ value: "a", label: "A", shared: false }]);
    expect(coupleInterests([[], []], [item("z")])).toEqual([{ value: "z", label: "Z", shared: false }]);
  });
});
