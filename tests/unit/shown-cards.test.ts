import { describe, expect, it } from "vitest";
import { shownSuggestion, type DiscoverSuggestion } from "@/lib/discover/queries";
import { shownDirectoryCard, type DirectoryCard } from "@/lib/directory/queries";

const card = {
  coupleId: "0f19b22a-c75c-4586-80f3-b415ec118cf3",
  coupleName: "Beatriz & Tomas",
  profileImageUrl: "/api/images/couple-main/a.jpg",
  badge: "Verified Couple",
  photoBadge: null,
  location: "Almada, Portugal",
  coupleTypes: [{ value: "culture_curators", label: "Culture Curators" }],
  connection: { state: "none" },
} as const;

describe("the cards a page sends the browser", () => {
  it("a suggestion carries what its card shows, not its styles, score or distance", () => {
    const suggestion: DiscoverSuggestion = {
      ...card,
      coupleTypes: [...card.coupleTypes],
      distance: "Within 10 km",
      score: 11,
      reasons: ["Within 10 km"],
    };
    expect(Object.keys(shownSuggestion(suggestion)).sort()).toEqual(
      ["badge", "connection", "coupleId", "coupleName", "location", "photoBadge", "profileImageUrl", "reasons"].sort(),
    );
  });

  it("a directory card carries what its card shows, not the couple's styles", () => {
    const directoryCard: DirectoryCard = {
      ...card,
      coupleTypes: [...card.coupleTypes],
      distanceBand: "Within 10 km",
      interestsInCommon: 3,
    };
    const shown = shownDirectoryCard(directoryCard);
    expect(shown).not.toHaveProperty("coupleTypes");
    expect(shown).toMatchObject({
      coupleId: card.coupleId,
      distanceBand: "Within 10 km",
      interestsInCommon: 3,
      connection: { state: "none" },
    });
  });
});
