import "server-only";
import { existsSync, readFileSync } from "node:fs";
import { placeParts } from "@/lib/locations/place-name";
import { loadCities } from "./gazetteer-data";
import { buildGazetteerIndexFile, GAZETTEER_INDEX_FILE, readGazetteerIndexFile, type GazetteerIndex } from "./gazetteer-file";
import { normalizeText } from "./normalize";
import { countryName, regionName } from "./regions";
import type { PlaceDetails, PlacesProvider, Prediction } from "./types";

/**
 * Offline place search over the GeoNames cities: a sorted array of normalized keys searched by
 * binary search for the prefix, ranked by population. Each name is a key from its start and
 * from each later word, so "york" also finds New York. The index is the build's file
 * (lib/places/gazetteer-file.ts), read as typed arrays over its bytes: a fresh instance's first
 * search costs a file read, not a sort of 200k keys.
 */
type Index = GazetteerIndex & {
  countryKeys: string[];
  regionKeys: Map<string, string>;
  /** How long reading (or, without the build's file, building) the index took. */
  loadMs: number;
  source: "file" | "built";
};

const PLACE_ID = /^geonames:(\d{1,10})$/;
/** What people type for a country that its English name or ISO code does not start with. */
const COUNTRY_ALIASES: Record<string, string> = { usa: "US", uk: "GB", uae: "AE", america: "US", england: "GB" };

/**
 * The build's index file; without one (a development server, the tests, a build made by
 * `next build` alone) the same index is built in memory from the package's cities.
 */
function loadIndex(): Index {
  const started = performance.now();
  // The file is traced explicitly (next.config.ts outputFileTracingIncludes).
  const file = existsSync(/*turbopackIgnore: true*/ GAZETTEER_INDEX_FILE)
    ? readGazetteerIndexFile(readFileSync(/*turbopackIgnore: true*/ GAZETTEER_INDEX_FILE))
    : null;
  const index = file ?? readGazetteerIndexFile(buildGazetteerIndexFile(loadCities()))!;
  return {
    ...index,
    countryKeys: index.countryCodes.map((code) => normalizeText(countryName(code))),
    regionKeys: new Map(),
    loadMs: performance.now() - started,
    source: file ? "file" : "built",
  };
}

const globalForIndex = globalThis as unknown as { __gazetteerIndex?: Index };

/** Read on first use and kept for the life of the process (it survives hot reloads). */
export function gazetteerIndex(): Index {
  globalForIndex.__gazetteerIndex ??= loadIndex();
  return globalForIndex.__gazetteerIndex;
}

/** Key j against a prefix, bytewise (the order the build sorted them in): negative when the key sorts first. */
function compareKey(index: Index, j: number, prefix: Uint8Array): number {
  const start = index.keyStart[j]!;
  const length = index.keyStart[j + 1]! - start;
  const n = Math.min(length, prefix.length);
  for (let i = 0; i < n; i++) {
    const diff = index.keyBytes[start + i]! - prefix[i]!;
    if (diff !== 0) return diff;
  }
  return length - prefix.length;
}

function startsWith(index: Index, j: number, prefix: Uint8Array): boolean {
  const start = index.keyStart[j]!;
  if (index.keyStart[j + 1]! - start < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (index.keyBytes[start + i] !== prefix[i]) return false;
  return true;
}

function lowerBound(index: Index, prefix: Uint8Array): number {
  let lo = 0;
  let hi = index.keyCount;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKey(index, mid, prefix) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const nameOf = (index: Index, c: number) => decoder.decode(index.names.subarray(index.nameStart[c]!, index.nameStart[c + 1]!));
const countryCodeOf = (index: Index, c: number) => index.countryCodes[index.country[c]!]!;
const admin1Of = (index: Index, c: number) => index.admin1Codes[index.admin1[c]!]!;

/** A later-word match ranks as if it had a tenth of its population: "york" gives New York City, then York. */
const LATER_WORD_WEIGHT = 0.1;

type Pick = { city: number; group: number; score: number };

/**
 * The best `limit` cities seen so far: a lower group first (0 name prefix, 1 with a country or
 * region qualifier, 2 one slip forgiven), then a higher score (population), then a lower id.
 */
class Top {
  readonly picked: Pick[] = [];
  constructor(
    private readonly index: Index,
    private readonly limit: number,
  ) {}

  private before(a: Pick, b: Pick): boolean {
    if (a.group !== b.group) return a.group < b.group;
    if (a.score !== b.score) return a.score > b.score;
    return this.index.ids[a.city]! < this.index.ids[b.city]!;
  }

  offer(city: number, group: number, laterWord: boolean): void {
    const candidate = { city, group, score: this.index.population[city]! * (laterWord ? LATER_WORD_WEIGHT : 1) };
    const seen = this.picked.findIndex((p) => p.city === city);
    if (seen !== -1) {
      if (!this.before(candidate, this.picked[seen]!)) return;
      this.picked.splice(seen, 1);
    }
    if (this.picked.length === this.limit && !this.before(candidate, this.picked[this.limit - 1]!)) return;
    let at = this.picked.length;
    while (at > 0 && this.before(candidate, this.picked[at - 1]!)) at--;
    this.picked.splice(at, 0, candidate);
    if (this.picked.length > this.limit) this.picked.pop();
  }

  get full(): boolean {
    return this.picked.length >= this.limit;
  }
}

function scan(index: Index, prefix: string, group: number, top: Top, accept?: (city: number) => boolean): void {
  const bytes = encoder.encode(prefix);
  for (let j = lowerBound(index, bytes); j < index.keyCount && startsWith(index, j, bytes); j++) {
    const packed = index.keyCity[j]!;
    const c = packed & 0x7fffffff;
    if (!accept || accept(c)) top.offer(c, group, packed >>> 31 === 1);
  }
}

function regionKey(index: Index, c: number): string {
  const code = countryCodeOf(index, c);
  const admin = admin1Of(index, c);
  const cacheKey = `${code}.${admin}`;
  let key = index.regionKeys.get(cacheKey);
  if (key === undefined) {
    key = normalizeText(regionName(code, admin) ?? "");
    index.regionKeys.set(cacheKey, key);
  }
  return key;
}

/** "paris fr", "paris, france", "portland oregon": the trailing words name the country or region. */
function qualifierMatches(index: Index, c: number, qualifier: string): boolean {
  const code = countryCodeOf(index, c);
  if (code.toLowerCase() === qualifier || COUNTRY_ALIASES[qualifier] === code) return true;
  if (index.countryKeys[index.country[c]!]!.startsWith(qualifier)) return true;
  const region = regionKey(index, c);
  return region !== "" && region.startsWith(qualifier);
}

/** One slip in a longer query: a letter too many, or two letters swapped. */
function oneSlipVariants(query: string): Set<string> {
  const variants = new Set<string>();
  for (let i = 0; i < query.length; i++) {
    variants.add(query.slice(0, i) + query.slice(i + 1));
    if (i + 1 < query.length) variants.add(query.slice(0, i) + query[i + 1] + query[i] + query.slice(i + 2));
  }
  variants.delete(query);
  for (const v of variants) if (v.trim().length < 3) variants.delete(v);
  return variants;
}

export function searchCities(query: string, limit: number): number[] {
  const q = normalizeText(query);
  if (q.length < 2 || limit < 1) return [];
  const index = gazetteerIndex();
  const top = new Top(index, limit);
  scan(index, q, 0, top);
  const words = q.split(" ");
  for (let k = words.length - 1; k >= 1 && !top.full; k--) {
    const name = words.slice(0, k).join(" ");
    const qualifier = words.slice(k).join(" ");
    if (name.length >= 2) scan(index, name, 1, top, (c) => qualifierMatches(index, c, qualifier));
  }
  if (top.picked.length === 0 && q.length >= 4) {
    for (const variant of oneSlipVariants(q)) scan(index, variant.trim(), 2, top);
  }
  return top.picked.map((p) => p.city);
}

function describe(index: Index, c: number) {
  const countryCode = countryCodeOf(index, c);
  const name = nameOf(index, c);
  const state = regionName(countryCode, admin1Of(index, c));
  const country = countryName(countryCode);
  // The region and country under the name, without repeating it (placeName's rule).
  const parts = placeParts(name, state, country);
  return {
    placeId: `geonames:${index.ids[c]}`,
    name,
    state,
    country,
    countryCode,
    secondary: parts.slice(1).join(", "),
    description: parts.join(", "),
  };
}

function findById(index: Index, id: number): number | null {
  const { byId, ids } = index;
  let lo = 0;
  let hi = byId.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = ids[byId[mid]!]!;
    if (at === id) return byId[mid]!;
    if (at < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return null;
}

export function gazetteerDetails(placeId: string): PlaceDetails | null {
  const match = PLACE_ID.exec(placeId);
  if (!match) return null;
  const index = gazetteerIndex();
  const c = findById(index, Number(match[1]));
  if (c === null) return null;
  const d = describe(index, c);
  return {
    place_id: d.placeId,
    formatted_address: d.description,
    name: d.name,
    geometry: { location: { lat: index.lat[c]! / 1e5, lng: index.lng[c]! / 1e5 } },
    city: d.name,
    state: d.state,
    country: d.country,
    countryCode: d.countryCode,
  };
}

export const isGazetteerPlaceId = (placeId: string) => PLACE_ID.test(placeId);

export function gazetteerPredictions(query: string, limit: number): Prediction[] {
  const index = gazetteerIndex();
  return searchCities(query, limit).map((c) => {
    const d = describe(index, c);
    return { place_id: d.placeId, description: d.description, structured_formatting: { main_text: d.name, secondary_text: d.secondary } };
  });
}

export const gazetteerProvider: PlacesProvider = {
  name: "gazetteer",
  autocomplete: async (query, limit) => gazetteerPredictions(query, limit),
  details: async (placeId) => gazetteerDetails(placeId),
};

export const gazetteerStats = () => {
  const index = gazetteerIndex();
  return { cities: index.count, keys: index.keyCount, loadMs: Math.round(index.loadMs), source: index.source };
};
