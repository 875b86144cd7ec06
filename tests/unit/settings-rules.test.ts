import { describe, expect, it } from "vitest";
import { privacyPreview } from "@/lib/couples/rules";
import { currentSection, SETTINGS_SECTIONS } from "@/lib/settings/sections";

const LISBON = { displayLocation: "Rua Augusta 24, Lisbon", city: "Lisbon", state: "Lisbon District", country: "Portugal" };

describe("privacyPreview", () => {
  it.each([
    ["full", "Others see: Rua Augusta 24, Lisbon"],
    ["city", "Others see: Lisbon, Lisbon District, Portugal"],
    ["region", "Others see: Lisbon District, Portugal"],
    ["country", "Others see: Portugal"],
    ["hidden", "Others see no location"],
  ] as const)("at %s says '%s'", (level, line) => {
    expect(privacyPreview(LISBON, level)).toBe(line);
  });

  it("never shows the chosen name below 'full', and skips missing parts", () => {
    expect(privacyPreview({ displayLocation: "Lisbon, Portugal", city: "Lisbon", state: null, country: "Portugal" }, "city")).toBe(
      "Others see: Lisbon, Portugal",
    );
    expect(privacyPreview({ ...LISBON, city: null, state: null, country: null }, "city")).toBe("Others see no location");
  });

  it("says no location without a place", () => {
    expect(privacyPreview(null, "full")).toBe("Others see no location");
  });
});

describe("settings sections", () => {
  it("lists the ten sections, each under /settings", () => {
    expect(SETTINGS_SECTIONS.map((section) => section.label)).toEqual([
      "Your profile",
      "Couple profile",
      "Location and privacy",
      "Appearance",
      "Notifications",
      "Security",
      "Partner",
      "Messages",
      "Blocked couples",
      "Your data",
    ]);
    for (const section of SETTINGS_SECTIONS) expect(section.href).toMatch(/^\/settings\/[a-z-]+$/);
  });

  it("finds the section of a path and of the pages below it, and none for the overview", () => {
    expect(currentSection("/settings/location")?.label).toBe("Location and privacy");
    expect(currentSection("/settings/security/sessions")?.label).toBe("Security");
    expect(currentSection("/settings")).toBeUndefined();
    expect(currentSection("/settings/locationx")).toBeUndefined();
  });
});
