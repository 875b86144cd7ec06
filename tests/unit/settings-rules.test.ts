import { describe, expect, it } from "vitest";
import { privacyPreview } from "@/lib/couples/rules";
import { haversineKm } from "@/lib/locations/bands";
import { POINT_PREVIEWS, shownCoordinates } from "@/lib/locations/privacy";
import { DEFAULT_PREFERENCES } from "@/lib/notifications/rules";
import { changedPreferences } from "@/lib/settings/changes";
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

describe("POINT_PREVIEWS", () => {
  // The farthest a shown point can be from the place: half a grid step on both axes, widest at the equator.
  const farthestKm = (level: "city" | "region") => {
    let farthest = 0;
    for (let lat = -0.6; lat <= 0.6; lat += 0.0013)
      for (const lng of [0.0049, 0.4999, 10.005, 10.4999]) {
        const shown = shownCoordinates(level, lat, lng)!;
        farthest = Math.max(farthest, haversineKm({ lat, lng }, shown));
      }
    return farthest;
  };

  it("promises no more precision than the grid gives: city within 1 km, region within 80 km", () => {
    expect(farthestKm("city")).toBeLessThan(1);
    expect(farthestKm("region")).toBeLessThan(80);
    expect(farthestKm("region")).toBeGreaterThan(50);
    expect(POINT_PREVIEWS.city).toContain("within 1 km");
    expect(POINT_PREVIEWS.region).toContain("within 80 km");
  });

  it("tells region level apart from country level, which shows no point", () => {
    expect(POINT_PREVIEWS.region).not.toBe(POINT_PREVIEWS.country);
    expect(POINT_PREVIEWS.country).toBe("Not on the map, and no distance to you.");
  });
});

describe("settings sections", () => {
  it("lists the eleven sections, each under /settings", () => {
    expect(SETTINGS_SECTIONS.map((section) => section.label)).toEqual([
      "Your profile",
      "Photo verification",
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

describe("changedPreferences", () => {
  it("sends only the types whose channels changed on the page, each whole; nothing when none did", () => {
    const saved = DEFAULT_PREFERENCES;
    expect(changedPreferences(saved, structuredClone(saved), saved)).toEqual({});
    const chosen = structuredClone(saved);
    chosen.reply.email = !saved.reply.email;
    chosen.mention.push = !saved.mention.push;
    expect(changedPreferences(saved, chosen, saved)).toEqual({ reply: chosen.reply, mention: chosen.mention });
  });

  it("sends a changed type's other channels as they stand now: an e-mail turned off since the page loaded (an unsubscribe link) stays off", () => {
    const saved = DEFAULT_PREFERENCES;
    const current = structuredClone(saved);
    current.reply.email = false;
    const chosen = structuredClone(saved);
    chosen.reply.push = !saved.reply.push;
    expect(changedPreferences(saved, chosen, current)).toEqual({ reply: { ...current.reply, push: chosen.reply.push } });
  });
});
