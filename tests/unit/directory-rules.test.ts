import { describe, expect, it } from "vitest";
import {
  DIRECTORY_SEARCH_MAX,
  cursorContext,
  directoryBand,
  directoryHref,
  filterParams,
  interestsVenn,
  NO_FILTERS,
  pageFilters,
  partnersVenn,
  searchNarrowed,
  searchWords,
  activeFilters,
  countText,
  commonText,
  mapCountText,
} from "@/lib/directory/rules";
import { directoryQuerySchema } from "@/lib/directory/schemas";
import { distanceBand } from "@/lib/forum/rules";
import { bandOf, haversineKm, distanceFromOwnKm } from "@/lib/locations/bands";

describe("distance bands", () => {
  it.each([
    [0, "Within 10 km"],
    [10, "Within 10 km"],
    [10.01, "Within 25 km"],
    [22, "Within 25 km"],
    [50, "Within 50 km"],
    [120, "Within 200 km"],
    [200.5, "Within 500 km"],
    [1800, "Within 2,500 km"],
    [5000, "Within 5,000 km"],
    [19_000, "More than 5,000 km"],
  ])("puts %d km in the directory band %j, never 'further away'", (km, band) => {
    expect(directoryBand(km)).toBe(band);
  });

  it("has no band without a distance, or for a value that is not one", () => {
    expect(directoryBand(null)).toBeNull();
    expect(directoryBand(Number.NaN)).toBeNull();
    expect(directoryBand(-1)).toBeNull();
    expect(bandOf(Number.POSITIVE_INFINITY, [10], "far")).toBeNull();
  });

  it("serves the forum's radii with the same rule: nothing beyond its largest", () => {
    expect(distanceBand(20)).toBe("within 25 km");
    expect(distanceBand(100)).toBe("within 100 km");
    expect(distanceBand(101)).toBeNull();
  });

  it("measures from the own place to the shown point: none when either place is hidden, country-level or has no coordinates", () => {
    const lisbon = { privacyLevel: "city" as const, latitude: 38.71667, longitude: -9.13333 };
    const sintra = { privacyLevel: "city" as const, latitude: 38.80097, longitude: -9.37826 };
    const km = distanceFromOwnKm(lisbon, sintra)!;
    expect(km).toBeGreaterThan(20);
    expect(km).toBeLessThan(25);
    // From the viewer's own place to the other's shown point.
    expect(km).toBeCloseTo(haversineKm({ lat: 38.71667, lng: -9.13333 }, { lat: 38.8, lng: -9.38 }), 6);
    for (const level of ["hidden", "country"] as const) {
      expect(distanceFromOwnKm(lisbon, { ...sintra, privacyLevel: level })).toBeNull();
      expect(distanceFromOwnKm({ ...lisbon, privacyLevel: level }, sintra)).toBeNull();
    }
    expect(distanceFromOwnKm(lisbon, { ...sintra, latitude: null })).toBeNull();
    expect(distanceFromOwnKm(null, sintra)).toBeNull();
    // The viewer's own level never moves where they stand.
    expect(distanceFromOwnKm({ ...lisbon, privacyLevel: "region" }, sintra)).toBe(km);
    // Region level snaps to whole degrees: moving within the cell changes nothing.
    const a = distanceFromOwnKm(lisbon, { privacyLevel: "region", latitude: 41.1, longitude: -8.6 });
    const b = distanceFromOwnKm(lisbon, { privacyLevel: "region", latitude: 40.6, longitude: -9.4 });
    expect(a).toBe(b);
  });
});

describe("interestsVenn", () => {
  it("splits two couples' interests into shared, only yours, only theirs and all four", () => {
    expect(
      interestsVenn(
        [
          ["hiking", "wine", "music"],
          ["hiking", "travel"],
        ],
        [
          ["hiking", "wine", "yoga"],
          ["hiking", "chess"],
        ],
      ),
    ).toEqual({
      shared: ["hiking", "wine"],
      onlyYours: ["music", "travel"],
      onlyTheirs: ["yoga", "chess"],
      allFour: ["hiking"],
    });
  });

  it("has no all-four list when either couple has one partner, and handles empty lists", () => {
    expect(interestsVenn([["hiking"]], [["hiking"], ["hiking"]])).toEqual({
      shared: ["hiking"],
      onlyYours: [],
      onlyTheirs: [],
      allFour: [],
    });
    expect(interestsVenn([[], []], [[], []])).toEqual({ shared: [], onlyYours: [], onlyTheirs: [], allFour: [] });
  });

  it("compares two partners for the current user", () => {
    expect(partnersVenn(["a", "b", "b"], ["b", "c"])).toEqual({ shared: ["b"], onlyMine: ["a"], onlyPartner: ["c"] });
    expect(partnersVenn(["a"], [])).toEqual({ shared: [], onlyMine: ["a"], onlyPartner: [] });
  });

  it("says how many interests are in common", () => {
    expect(commonText(1)).toBe("1 interest in common");
    expect(commonText(3)).toBe("3 interests in common");
  });
});

describe("directory filters", () => {
  it("reads a page address leniently: unknown values are dropped, never an error", () => {
    expect(
      pageFilters(
        {
          q: "  Ana ",
          interests: "hiking,nope,hiking,travel",
          styles: "culture_curators,bogus",
          verified: "1",
          photoVerified: "1",
          distance: "50",
          sort: "common",
        },
        true,
      ),
    ).toEqual({
      q: "Ana",
      interests: ["hiking", "travel"],
      styles: ["culture_curators"],
      verified: true,
      photoVerified: true,
      distance: 50,
      sort: "common",
    });
    expect(pageFilters({ distance: "30", sort: "random", verified: "yes", q: "x".repeat(101) }, false)).toEqual(NO_FILTERS);
    expect(pageFilters({ interests: ["hiking", "travel"] }, true).interests).toEqual(["hiking", "travel"]);
  });

  it("drops the distance filter and the nearest sort for a viewer without a location", () => {
    expect(pageFilters({ distance: "10", sort: "nearest" }, false)).toEqual(NO_FILTERS);
    expect(pageFilters({ distance: "10", sort: "nearest" }, true)).toMatchObject({ distance: 10, sort: "nearest" });
  });

  it("sorts nearest first by default for a viewer with a place, newest first without one", () => {
    expect(pageFilters({}, true).sort).toBe("nearest");
    expect(pageFilters({}, false).sort).toBe("newest");
    expect(directoryHref({ ...NO_FILTERS, sort: "nearest" }, true)).toBe("/directory");
    expect(directoryHref({ ...NO_FILTERS, sort: "newest" }, true)).toBe("/directory?sort=newest");
    expect(directoryHref(NO_FILTERS, false)).toBe("/directory");
  });

  it("writes the same parameter names back, without empty values or the viewer's default sort", () => {
    const filters = {
      q: "Ana",
      interests: ["hiking", "travel"],
      styles: [],
      verified: true,
      photoVerified: true,
      distance: 10 as const,
      sort: "nearest" as const,
    };
    expect(filterParams(filters, "abc").toString()).toBe(
      "q=Ana&interests=hiking%2Ctravel&verified=1&photoVerified=1&distance=10&sort=nearest&cursor=abc",
    );
    expect(directoryHref(NO_FILTERS, false)).toBe("/directory");
    expect(pageFilters(Object.fromEntries(filterParams(filters)), true)).toEqual(filters);
  });

  it("signs a cursor for its own filters only", () => {
    expect(cursorContext(NO_FILTERS, null)).not.toBe(cursorContext({ ...NO_FILTERS, verified: true }, null));
    expect(cursorContext(NO_FILTERS, null)).not.toBe(cursorContext({ ...NO_FILTERS, photoVerified: true }, null));
    expect(cursorContext(NO_FILTERS, null)).not.toBe(cursorContext({ ...NO_FILTERS, sort: "common" }, null));
    // A search holding the separators is not another filter set.
    expect(cursorContext({ ...NO_FILTERS, q: "a:travel" }, null)).not.toBe(
      cursorContext({ ...NO_FILTERS, q: "a", interests: ["travel"] }, null),
    );
    expect(cursorContext({ ...NO_FILTERS, interests: ["a,b"] }, null)).not.toBe(
      cursorContext({ ...NO_FILTERS, interests: ["a", "b"] }, null),
    );
  });

  it("signs a cursor for its own couple's list only", () => {
    const one = "00000000-0000-4000-8000-000000000001";
    const other = "00000000-0000-4000-8000-000000000002";
    expect(cursorContext(NO_FILTERS, one)).not.toBe(cursorContext(NO_FILTERS, other));
    expect(cursorContext(NO_FILTERS, one)).not.toBe(cursorContext(NO_FILTERS, null));
  });

  it("validates the API's query strictly", () => {
    expect(directoryQuerySchema.parse({})).toEqual({ interests: [], styles: [], verified: false, photoVerified: false, limit: 24 });
    expect(directoryQuerySchema.parse({ photoVerified: "1" }).photoVerified).toBe(true);
    expect(directoryQuerySchema.parse({ interests: "hiking, travel", distance: "200", verified: "1", limit: "5", q: "" })).toMatchObject({
      interests: ["hiking", "travel"],
      distance: 200,
      verified: true,
      limit: 5,
    });
    for (const bad of [
      { interests: "hiking,nope" },
      { styles: "x" },
      { distance: "30" },
      { sort: "best" },
      { verified: "true" },
      { photoVerified: "yes" },
      { limit: "100" },
    ]) {
      expect(directoryQuerySchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe("the directory's search text follows the one one-line rule (lib/fields)", () => {
  const unsafe = ["a\u0000b", "a\nb", "a\u2028b", "a\u0085b", "a\ud800b"];
  it("the API refuses control characters, line separators and lone surrogates with a 400 message", () => {
    for (const q of unsafe) expect(directoryQuerySchema.safeParse({ q }).success, JSON.stringify(q)).toBe(false);
    expect(directoryQuerySchema.parse({ q: "  Marisol & Thaddeus " }).q).toBe("Marisol & Thaddeus");
  });
  it("the page drops them", () => {
    for (const q of unsafe) expect(pageFilters({ q }, true).q, JSON.stringify(q)).toBeUndefined();
    expect(pageFilters({ q: "Marisol" }, true).q).toBe("Marisol");
  });
  it("the page reads a search as the API does: a decomposed accent in NFC, so its first page, the count and the cursor agree", () => {
    const q = " Zu\u0308rich ";
    expect(pageFilters({ q }, true).q).toBe("Z\u00fcrich");
    expect(pageFilters({ q }, true).q).toBe(directoryQuerySchema.parse({ q }).q);
  });
  it("the page and the API agree on every search: the API's text, or none where the API refuses it", () => {
    const max = DIRECTORY_SEARCH_MAX;
    const searches = [
      "",
      "   ",
      "a",
      ` ${"é".repeat(max)} `,
      "e\u0301".repeat(max),
      "x".repeat(max + 1),
      ` ${"x".repeat(max)}${" ".repeat(max)}`,
      "a\nb",
    ];
    for (const q of searches) {
      const api = directoryQuerySchema.safeParse({ q });
      expect(pageFilters({ q }, true).q, JSON.stringify(q)).toBe(api.success ? api.data.q : undefined);
    }
  });
});

describe("the directory's search words", () => {
  it("are the words typed, lower-cased, each once, a bounded number of them", () => {
    expect(searchWords(undefined)).toEqual([]);
    expect(searchWords("Perpetua  London perpetua")).toEqual(["perpetua", "london"]);
    expect(searchWords("a b c d e f g h")).toEqual(["a", "b", "c", "d", "e", "f"]);
  });
  it("are narrowed by the trigram index only with three letters or digits in a row", () => {
    expect(["perpetua", "124", "o'neill", "zoë-ann"].every(searchNarrowed)).toBe(true);
    expect(["12", "a-b", "&", "ab.cd", "zoë"].some(searchNarrowed)).toBe(false);
  });
});

describe("the directory's chips, count and views", () => {
  it("names every filter in force as a chip that removes it, the viewer's default sort left out", () => {
    const filters = {
      q: "Perpetua",
      interests: ["hiking"],
      styles: ["culture_curators"],
      verified: true,
      photoVerified: false,
      distance: 25 as const,
      sort: "newest" as const,
    };
    const chips = activeFilters(filters, true);
    expect(chips.map((chip) => chip.label)).toEqual([
      "“Perpetua”",
      "Within 25 km",
      "Verified couples only",
      "Culture Curators",
      "Hiking",
      "Sorted: Newest",
    ]);
    expect(directoryHref(chips[1]!.without, true)).toBe(
      "/directory?q=Perpetua&interests=hiking&styles=culture_curators&verified=1&sort=newest",
    );
    expect(directoryHref(chips[5]!.without, true, "map")).toBe(
      "/directory?q=Perpetua&interests=hiking&styles=culture_curators&verified=1&distance=25&view=map",
    );
    expect(activeFilters({ ...NO_FILTERS, sort: "nearest" }, true)).toEqual([]);
  });

  it("says a count in words", () => {
    expect(countText({ count: 1, more: false })).toBe("1 couple");
    expect(countText({ count: 12, more: false })).toBe("12 couples");
    expect(countText({ count: 1000, more: true })).toBe("1,000+ couples");
  });

  it("says which couples the map shows when the list goes on past them: the first in the list's own sort", () => {
    expect(mapCountText({ count: 3, more: false }, "newest")).toBe("3 couples");
    expect(mapCountText({ count: 500, more: true }, "nearest")).toBe("500+ couples, nearest first");
    expect(mapCountText({ count: 500, more: true }, "newest")).toBe("500+ couples, newest first");
    expect(mapCountText({ count: 420, more: true }, "common")).toBe("420+ couples, most in common first");
  });
});
