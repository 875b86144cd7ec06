import { describe, expect, it } from "vitest";
import { COUPLE_TYPE_VALUES } from "@/lib/couples/rules";
import { directoryBand } from "@/lib/directory/rules";
import { INTEREST_VALUES } from "@/lib/interests/catalogue";
import {
  allFourInterests,
  bandLabel,
  coupleInterestSet,
  distanceBand,
  distanceKm,
  interestsReason,
  namedList,
  rankSuggestions,
  scoreCouple,
  WEIGHTS,
  type ScoringCouple,
} from "@/lib/discover/rules";

const LISBON = { lat: 38.72, lng: -9.13 };
const SINTRA = { lat: 38.8, lng: -9.38 };
const PORTO = { lat: 41.15, lng: -8.61 };

const couple = (id: string, overrides: Partial<ScoringCouple> = {}): ScoringCouple => ({
  id,
  partners: [[], []],
  coupleInterests: [],
  styles: [],
  point: null,
  ...overrides,
});

describe("discover scoring", () => {
  it("a couple's interests are the union of its partners', else its own list", () => {
    expect(
      [...coupleInterestSet(couple("a", { partners: [["travel"], ["hiking", "travel"]], coupleInterests: ["music"] }))].sort(),
    ).toEqual(["hiking", "travel"]);
    expect([...coupleInterestSet(couple("a", { partners: [[], []], coupleInterests: ["music"] }))]).toEqual(["music"]);
  });

  it("all four: only what every one of the four holds, and nothing when a couple has one partner", () => {
    const us = couple("us", {
      partners: [
        ["travel", "hiking", "wine_tasting"],
        ["travel", "hiking"],
      ],
    });
    const them = couple("them", {
      partners: [
        ["travel", "hiking"],
        ["travel", "music"],
      ],
    });
    expect([...allFourInterests(us, them)]).toEqual(["travel"]);
    expect(allFourInterests(us, couple("solo", { partners: [["travel"]] })).size).toBe(0);
  });

  it("says why, in the page's words", () => {
    const all = ["travel", "wine_tasting", "hiking"];
    const us = couple("us", { partners: [all, all], styles: ["culture_curators", "career_climbers"], point: LISBON });
    const them = couple("them", { partners: [[...all, "music"], all], styles: ["culture_curators"], point: SINTRA });
    const s = scoreCouple(us, them);
    expect(s.reasons).toEqual(["You all love travel, wine tasting and hiking", "Both Culture Curators", "Within 25 km"]);
    expect(s.score).toBe(3 * WEIGHTS.allFour + WEIGHTS.style + WEIGHTS.band[25]);
  });

  it("names what all four love, else what the two couples share, in one chip", () => {
    const us = couple("us", { partners: [["travel", "cooking"], ["travel"]], styles: ["culture_curators", "career_climbers"] });
    const them = couple("them", { partners: [["travel"], ["travel", "cooking"]], styles: ["career_climbers", "culture_curators"] });
    expect(scoreCouple(us, them).reasons).toEqual(["You all love travel", "Both Culture Curators", "Both Career Climbers"]);
    const solo = couple("solo", { partners: [["cooking", "yoga"]] });
    expect(scoreCouple(us, solo).reasons).toEqual(["Both couples like cooking"]);
  });

  it("the interests reason names up to three interests in catalogue order and counts the rest", () => {
    expect(interestsReason({ allFour: ["hiking", "wine_tasting", "travel"], sharedInterests: [] })).toBe(
      "You all love hiking, wine tasting and travel",
    );
    expect(interestsReason({ allFour: [], sharedInterests: ["sailing", "skiing", "theatre", "dance", "writing"] })).toBe(
      "Both couples like sailing, skiing, theatre and 2 more",
    );
    expect(interestsReason({ allFour: ["arts_culture"], sharedInterests: ["arts_culture", "music"] })).toBe("You all love arts & culture");
    expect(interestsReason({ allFour: [], sharedInterests: [] })).toBeNull();
  });

  it("names a list as a sentence does", () => {
    expect(namedList([])).toBe("");
    expect(namedList(["hiking"])).toBe("hiking");
    expect(namedList(["hiking", "wine"])).toBe("hiking and wine");
    expect(namedList(["hiking", "wine", "travel"])).toBe("hiking, wine and travel");
    expect(namedList(["hiking", "wine", "travel", "music"])).toBe("hiking, wine, travel and 1 more");
    expect(namedList(["a", "b", "c", "d", "e", "f"], 2)).toBe("a, b and 4 more");
  });

  it("distance is a band of the shown points, never a figure; none without both points", () => {
    expect(distanceKm(LISBON, SINTRA)).toBeGreaterThan(15);
    expect(distanceBand(9.9)).toBe(10);
    expect(distanceBand(10)).toBe(10);
    expect(distanceBand(24)).toBe(25);
    expect(distanceBand(49)).toBe(50);
    expect(distanceBand(99)).toBe(100);
    expect(distanceBand(199)).toBe(200);
    expect(distanceBand(201)).toBeNull();
    const us = couple("us", { point: LISBON, styles: ["culture_curators"] });
    expect(scoreCouple(us, couple("far", { point: PORTO, styles: ["culture_curators"] })).distanceBand).toBeNull();
    expect(scoreCouple(us, couple("hidden", { point: null, styles: ["culture_curators"] })).reasons).toEqual(["Both Culture Curators"]);
    for (const reason of scoreCouple(us, couple("near", { point: SINTRA })).reasons) expect(reason).not.toMatch(/\d\.\d|km away/);
  });

  it("ranks best first, ties nearer first then by id, drops couples with nothing in common and the viewer's own", () => {
    const us = couple("us", {
      partners: [
        ["travel", "hiking"],
        ["travel", "hiking"],
      ],
      point: LISBON,
    });
    const ranked = rankSuggestions(us, [
      couple("nothing", { partners: [["music"], ["music"]], point: PORTO }),
      couple("one", { partners: [["travel"], ["music"]] }),
      couple("both-far", {
        partners: [
          ["travel", "hiking"],
          ["travel", "hiking"],
        ],
      }),
      couple("both-near", {
        partners: [
          ["travel", "hiking"],
          ["travel", "hiking"],
        ],
        point: SINTRA,
      }),
      couple("b-one", { partners: [["travel"], ["music"]] }),
      couple("us", {
        partners: [
          ["travel", "hiking"],
          ["travel", "hiking"],
        ],
        point: LISBON,
      }),
    ]);
    expect(ranked.map((s) => s.id)).toEqual(["both-near", "both-far", "b-one", "one"]);
    expect(rankSuggestions(us, [couple("x", { partners: [["travel"], []] }), couple("y", { partners: [["travel"], []] })], 1)).toHaveLength(
      1,
    );
  });
  it("ranks as scoring every candidate whole would: the same suggestions, order and reasons, ties broken by id", () => {
    // Deterministic, so a failure repeats: many small scores tie, and the ids are uuids as stored.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const some = (values: readonly string[], most: number) => values.filter(() => next() < most / values.length);
    const places = [LISBON, SINTRA, PORTO, null];
    const randomCouple = (id: string): ScoringCouple =>
      couple(id, {
        partners: next() < 0.2 ? [some(INTEREST_VALUES, 3)] : [some(INTEREST_VALUES, 3), some(INTEREST_VALUES, 3)],
        coupleInterests: some(INTEREST_VALUES, 2),
        styles: some(COUPLE_TYPE_VALUES, 1.5),
        point: places[Math.floor(next() * places.length)]!,
      });
    const uuid = () => crypto.randomUUID();
    for (let round = 0; round < 20; round++) {
      const viewer = randomCouple(uuid());
      const candidates = Array.from({ length: 130 }, () => randomCouple(uuid()));
      const whole = candidates
        .map((candidate) => scoreCouple(viewer, candidate))
        .filter((suggestion) => suggestion.score > 0)
        .sort((a, b) => b.score - a.score || (a.distanceBand ?? Infinity) - (b.distanceBand ?? Infinity) || a.id.localeCompare(b.id))
        .slice(0, 24);
      expect(rankSuggestions(viewer, candidates, 24)).toEqual(whole);
    }
  });
});

describe("one set of bands between couples", () => {
  it("discover (and the dashboard) name the band a directory card and a profile name, up to 200 km", () => {
    for (const km of [0, 3, 10, 10.01, 22, 42, 50, 120, 200]) expect(bandLabel(distanceBand(km)!), String(km)).toBe(directoryBand(km));
    expect(distanceBand(200.5)).toBeNull();
  });
});
