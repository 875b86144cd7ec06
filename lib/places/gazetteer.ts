import "server-only";
import { loadCities, type Cities } from "./gazetteer-data";
import { normalizeText } from "./normalize";
import { countryName, regionName } from "./regions";
import type { PlaceDetails, PlacesProvider, Prediction } from "./types";

/**
 * Offline place search over the GeoNames cities: a sorted array of normalized keys searched by
 * binary search for the prefix, ranked by population. Each name is a key from its start and
 * from each later word, so "york" also finds New York.
 */
type Index = {
  cities: Cities;
  keys: string[];
  /** The city of each key. */
  city: Uint32Array;
  /** 1 when the key starts at a later word of the name. */
  inner: Uint8Array;
  /** City positions sorted by GeoNames id, for details. */
  byId: Uint32Array;
  countryKeys: string[];
  regionKeys: Map<string, string>;
  buildMs: number;
};

const PLACE_ID = /^geonames:(\d{1,10})$/;
/** What people type for a country that its English name or ISO code does not start with. */
const COUNTRY_ALIASES: Record<string, string> = { usa: "US", uk: "GB", uae: "AE", america: "US", england: "GB" };

function buildIndex(): Index {
  const started = performance.now();
  const cities = loadCities();
  const tmpKeys: string[] = [];
  const tmpCity: number[] = [];
  for (let c = 0; c < cities.count; c++) {
    const key = normalizeText(cities.names[c]!);
    if (!key) continue;
    tmpKeys.push(key);
    tmpCity.push(c);
    for (let at = key.indexOf(" "); at !== -1; at = key.indexOf(" ", at + 1)) {
      tmpKeys.push(key.slice(at + 1));
      tmpCity.push(c | 0x80000000); // high bit marks a later-word key until the arrays are packed
    }
  }
  const order = Array.from(tmpKeys.keys()).sort((a, b) => (tmpKeys[a]! < tmpKeys[b]! ? -1 : tmpKeys[a]! > tmpKeys[b]! ? 1 : 0));
  const keys = order.map((i) => tmpKeys[i]!);
  const city = new Uint32Array(order.length);
  const inner = new Uint8Array(order.length);
  order.forEach((i, j) => {
    const packed = tmpCity[i]!;
    city[j] = packed & 0x7fffffff;
    inner[j] = packed >>> 31;
  });
  const byId = Uint32Array.from(cities.ids.keys()).sort((a, b) => cities.ids[a]! - cities.ids[b]!);
  return {
    cities,
    keys,
    city,
    inner,
    byId,
    countryKeys: cities.countryCodes.map((code) => normalizeText(countryName(code))),
    regionKeys: new Map(),
    buildMs: performance.now() - started,
  };
}

const globalForIndex = globalThis as unknown as { __gazetteerIndex?: Index };

/** Built on first use and kept for the life of the process (it survives hot reloads). */
export function gazetteerIndex(): Index {
  globalForIndex.__gazetteerIndex ??= buildIndex();
  return globalForIndex.__gazetteerIndex;
}

function lowerBound(keys: string[], prefix: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < prefix) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

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
    return this.index.cities.ids[a.city]! < this.index.cities.ids[b.city]!;
  }

  offer(city: number, group: number, laterWord: boolean): void {
    const candidate = { city, group, score: this.index.cities.population[city]! * (laterWord ? LATER_WORD_WEIGHT : 1) };
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
  const { keys, city, inner } = index;
  for (let j = lowerBound(keys, prefix); j < keys.length && keys[j]!.startsWith(prefix); j++) {
    const c = city[j]!;
    if (!accept || accept(c)) top.offer(c, group, inner[j] === 1);
  }
}

function regionKey(index: Index, c: number): string {
  const code = index.cities.countryCodes[index.cities.country[c]!]!;
  const admin = index.cities.admin1[c]!;
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
  const code = index.cities.countryCodes[index.cities.country[c]!]!;
  if (code.toLowerCase() === qualifier || COUNTRY_ALIASES[qualifier] === code) return true;
  if (index.countryKeys[index.cities.country[c]!]!.startsWith(qualifier)) return true;
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
  const { cities } = index;
  const countryCode = cities.countryCodes[cities.country[c]!]!;
  const name = cities.names[c]!;
  const state = regionName(countryCode, cities.admin1[c]!);
  const country = countryName(countryCode);
  const secondary = [state, country].filter(Boolean).join(", ");
  return { placeId: `geonames:${cities.ids[c]}`, name, state, country, countryCode, secondary, description: `${name}, ${secondary}` };
}

function findById(index: Index, id: number): number | null {
  const { byId, cities } = index;
  let lo = 0;
  let hi = byId.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = cities.ids[byId[mid]!]!;
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
    geometry: { location: { lat: index.cities.lat[c]!, lng: index.cities.lng[c]! } },
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
  return { cities: index.cities.count, keys: index.keys.length, buildMs: Math.round(index.buildMs) };
};
