import { describe, expect, it } from "vitest";
import { gazetteerDetails, gazetteerPredictions, gazetteerStats } from "@/lib/places/gazetteer";
import type { Cities } from "@/lib/places/gazetteer-data";
import { buildGazetteerIndexFile, GAZETTEER_FORMAT_VERSION, readGazetteerIndexFile } from "@/lib/places/gazetteer-file";
import { normalizeText } from "@/lib/places/normalize";

const first = (query: string) => gazetteerPredictions(query, 5)[0];

describe("normalizeText", () => {
  it("strips accents, folds case and letters NFD keeps, and collapses punctuation", () => {
    expect(normalizeText("  São   Paulo ")).toBe("sao paulo");
    expect(normalizeText("Łódź")).toBe("lodz");
    expect(normalizeText("Saint-Étienne")).toBe("saint etienne");
    expect(normalizeText("St. John's")).toBe("st johns");
    expect(normalizeText("Tromsø")).toBe("tromso");
  });
});

describe("offline gazetteer search", () => {
  it("puts Lisbon, Portugal first for 'lisb', with the seed's stable place id", () => {
    expect(first("lisb")).toEqual({
      place_id: "geonames:2267057",
      description: "Lisbon, Portugal",
      structured_formatting: { main_text: "Lisbon", secondary_text: "Portugal" },
    });
  });

  it("matches multi-word prefixes: 'san fr' gives San Francisco first", () => {
    expect(first("san fr")?.description).toBe("San Francisco, California, United States");
  });

  it("is accent-insensitive both ways: 'sao pa' and 'SÃO PAULO' give São Paulo, Brazil first", () => {
    expect(first("sao pa")?.description).toBe("São Paulo, Brazil");
    expect(first("SÃO PAULO")?.description).toBe("São Paulo, Brazil");
    expect(first("zurich")?.structured_formatting.main_text).toBe("Zürich");
    expect(first("lodz")?.structured_formatting.main_text).toBe("Łódź");
  });

  it("ranks by population among names that start with the query", () => {
    const names = gazetteerPredictions("springfield", 5).map((p) => p.description);
    expect(names[0]).toBe("Springfield, Missouri, United States");
    expect(new Set(names).size).toBe(5);
  });

  it("finds a later word of a name, weighted below a name that starts with the query", () => {
    const york = gazetteerPredictions("york", 5).map((p) => p.description);
    expect(york.slice(0, 2)).toEqual(["New York City, New York, United States", "York, England, United Kingdom"]);
    expect(first("angeles")?.description).toBe("Los Angeles, California, United States");
    expect(first("lisb")?.description).toBe("Lisbon, Portugal");
  });

  it("reads trailing words as the country or region: 'paris, texas', 'paris fr', 'portland or'", () => {
    expect(first("paris, texas")?.description).toBe("Paris, Texas, United States");
    expect(first("paris fr")?.description).toBe("Paris, France");
    expect(first("portland or")?.description).toBe("Portland, Oregon, United States");
  });

  it("forgives one slip when nothing matches: a doubled or swapped letter", () => {
    expect(first("lisbbon")?.place_id).toBe("geonames:2267057");
    expect(first("lsibon")?.place_id).toBe("geonames:2267057");
  });

  it("returns at most `limit` predictions", () => {
    expect(gazetteerPredictions("san", 3)).toHaveLength(3);
    expect(gazetteerPredictions("san", 10)).toHaveLength(10);
    expect(gazetteerPredictions("san", 0)).toEqual([]);
  });

  it("returns nothing for empty, blank, one-character or unknown queries", () => {
    expect(gazetteerPredictions("", 5)).toEqual([]);
    expect(gazetteerPredictions("   ", 5)).toEqual([]);
    expect(gazetteerPredictions("l", 5)).toEqual([]);
    expect(gazetteerPredictions("!!", 5)).toEqual([]);
    expect(gazetteerPredictions("qqqqxzzz", 5)).toEqual([]);
  });

  it("builds its index once, over every city of the package", () => {
    const stats = gazetteerStats();
    expect(stats.cities).toBeGreaterThan(130_000);
    expect(gazetteerStats()).toEqual(stats);
  });
});

describe("offline gazetteer details", () => {
  it("gives the spec's details shape for a place id", () => {
    expect(gazetteerDetails("geonames:2267057")).toEqual({
      place_id: "geonames:2267057",
      formatted_address: "Lisbon, Portugal",
      name: "Lisbon",
      geometry: { location: { lat: 38.71667, lng: -9.13333 } },
      city: "Lisbon",
      state: null,
      country: "Portugal",
      countryCode: "PT",
    });
    expect(gazetteerDetails("geonames:5391959")?.state).toBe("California");
  });

  it("answers null for an unknown or foreign id", () => {
    expect(gazetteerDetails("geonames:999999999")).toBeNull();
    expect(gazetteerDetails("geonames:abc")).toBeNull();
    expect(gazetteerDetails("ChIJ7cv00DwsDogRAMDACa2m4K8")).toBeNull();
    expect(gazetteerDetails("")).toBeNull();
  });

  it("resolves every prediction it gives", () => {
    for (const prediction of gazetteerPredictions("be", 10)) {
      expect(gazetteerDetails(prediction.place_id)?.formatted_address).toBe(prediction.description);
    }
  });
});

describe("the gazetteer's index file (written by `npm run build`)", () => {
  const cities: Cities = {
    count: 3,
    ids: Uint32Array.from([30, 10, 20]),
    names: ["São Paulo", "New York City", "York"],
    country: Uint16Array.from([0, 1, 1]),
    countryCodes: ["BR", "US"],
    admin1: ["27", "NY", "NY"],
    population: Uint32Array.from([12_000_000, 8_000_000, 150_000]),
    lat: Float64Array.from([-23.5475, 40.71427, 42.5]),
    lng: Float64Array.from([-46.63611, -74.00597, -76.1]),
  };

  it("holds every city, its keys sorted bytewise with later words marked, and the places' exact coordinates", () => {
    const index = readGazetteerIndexFile(buildGazetteerIndexFile(cities))!;
    expect([index.count, index.keyCount]).toEqual([3, 6]);
    const keys = Array.from({ length: index.keyCount }, (_, j) =>
      new TextDecoder().decode(index.keyBytes.subarray(index.keyStart[j]!, index.keyStart[j + 1]!)),
    );
    expect(keys).toEqual(["city", "new york city", "paulo", "sao paulo", "york", "york city"]);
    expect(Array.from(index.keyCity, (packed) => [packed & 0x7fffffff, packed >>> 31])).toEqual([
      [1, 1],
      [1, 0],
      [0, 1],
      [0, 0],
      [2, 0],
      [1, 1],
    ]);
    expect(new TextDecoder().decode(index.names.subarray(index.nameStart[0]!, index.nameStart[1]!))).toBe("São Paulo");
    expect(Array.from(index.lat, (v) => v / 1e5)).toEqual([-23.5475, 40.71427, 42.5]);
    expect(Array.from(index.byId, (c) => index.ids[c])).toEqual([10, 20, 30]);
    expect([index.countryCodes, index.admin1Codes]).toEqual([
      ["BR", "US"],
      ["27", "NY"],
    ]);
  });

  it("is not read when its format is another version's, or not an index at all", () => {
    const file = buildGazetteerIndexFile(cities);
    const other = file.slice();
    new DataView(other.buffer).setUint32(4, GAZETTEER_FORMAT_VERSION + 1, true);
    expect(readGazetteerIndexFile(other)).toBeNull();
    expect(readGazetteerIndexFile(new TextEncoder().encode("not an index file, clearly not one at all, no"))).toBeNull();
  });
});
