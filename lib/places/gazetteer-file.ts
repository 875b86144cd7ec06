import path from "node:path";
import type { Cities } from "./gazetteer-data";
import { normalizeText } from "./normalize";

/**
 * The offline gazetteer's search index as one file, made once at build time (`npm run build`
 * runs scripts/build-gazetteer.ts) and read by a server as flat typed arrays over its bytes:
 * nothing is parsed, sorted or allocated per city, so the first search of a fresh instance costs
 * a file read (~10 MB) instead of decoding 135k cities and sorting 200k keys (0.5-2 s).
 *
 * Layout (little-endian, every section 4-byte aligned, offsets in the header):
 *   header   Uint32[20]: magic, version, cities, keys, then the byte offset of each section below
 *   ids, population        Uint32[cities]   GeoNames id, inhabitants
 *   lat, lng               Int32[cities]    degrees x 1e5, exactly as the package stores them
 *   country, admin1        Uint16[cities]   index into the tables
 *   nameStart              Uint32[cities+1] into `names` (UTF-8)
 *   keyStart               Uint32[keys+1]   into `keyBytes` (UTF-8, sorted bytewise)
 *   keyCity                Uint32[keys]     the key's city; the high bit marks a later-word key
 *   byId                   Uint32[cities]   city positions sorted by GeoNames id
 *   tables                 UTF-8 JSON {countryCodes, admin1}
 */
const MAGIC = 0x315a5447; // "GTZ1"
/** Bump when the layout changes: a file of another version is not read. */
export const GAZETTEER_FORMAT_VERSION = 1;

/** Where the build writes it and servers read it (traced into every function: next.config.ts). */
export const GAZETTEER_INDEX_FILE = path.join(process.cwd(), "lib", "places", "gazetteer.idx");

const SECTIONS = [
  "ids",
  "population",
  "lat",
  "lng",
  "country",
  "admin1",
  "nameStart",
  "names",
  "keyStart",
  "keyBytes",
  "keyCity",
  "byId",
  "tables",
] as const;
type Section = (typeof SECTIONS)[number];
const HEADER_WORDS = 20;

export type GazetteerIndex = {
  count: number;
  keyCount: number;
  ids: Uint32Array;
  population: Uint32Array;
  lat: Int32Array;
  lng: Int32Array;
  country: Uint16Array;
  admin1: Uint16Array;
  nameStart: Uint32Array;
  names: Uint8Array;
  keyStart: Uint32Array;
  keyBytes: Uint8Array;
  keyCity: Uint32Array;
  byId: Uint32Array;
  countryCodes: string[];
  admin1Codes: string[];
};

const align4 = (n: number) => (n + 3) & ~3;

/** The index file of the decoded cities: keys for each name from its start and from each later word. */
export function buildGazetteerIndexFile(cities: Cities): Uint8Array {
  const encoder = new TextEncoder();
  const keys: { bytes: Uint8Array; city: number }[] = [];
  for (let c = 0; c < cities.count; c++) {
    const key = normalizeText(cities.names[c]!);
    if (!key) continue;
    keys.push({ bytes: encoder.encode(key), city: c });
    for (let at = key.indexOf(" "); at !== -1; at = key.indexOf(" ", at + 1)) {
      keys.push({ bytes: encoder.encode(key.slice(at + 1)), city: (c | 0x80000000) >>> 0 });
    }
  }
  keys.sort((a, b) => Buffer.compare(a.bytes, b.bytes) || a.city - b.city);

  const admin1Codes = [...new Set(cities.admin1)];
  const admin1Index = new Map(admin1Codes.map((code, i) => [code, i]));
  const names = cities.names.map((name) => encoder.encode(name));
  const concat = (parts: Uint8Array[]) => Buffer.concat(parts);
  const starts = (parts: Uint8Array[]) => {
    const out = new Uint32Array(parts.length + 1);
    for (let i = 0; i < parts.length; i++) out[i + 1] = out[i]! + parts[i]!.byteLength;
    return out;
  };
  const body: Record<Section, Uint8Array> = {
    ids: bytesOf(Uint32Array.from(cities.ids)),
    population: bytesOf(Uint32Array.from(cities.population)),
    lat: bytesOf(Int32Array.from(cities.lat, (v) => Math.round(v * 1e5))),
    lng: bytesOf(Int32Array.from(cities.lng, (v) => Math.round(v * 1e5))),
    country: bytesOf(Uint16Array.from(cities.country)),
    admin1: bytesOf(Uint16Array.from(cities.admin1, (code) => admin1Index.get(code)!)),
    nameStart: bytesOf(starts(names)),
    names: concat(names),
    keyStart: bytesOf(starts(keys.map((k) => k.bytes))),
    keyBytes: concat(keys.map((k) => k.bytes)),
    keyCity: bytesOf(Uint32Array.from(keys, (k) => k.city)),
    byId: bytesOf(Uint32Array.from(cities.ids.keys()).sort((a, b) => cities.ids[a]! - cities.ids[b]!)),
    tables: encoder.encode(JSON.stringify({ countryCodes: cities.countryCodes, admin1: admin1Codes })),
  };
  const header = new Uint32Array(HEADER_WORDS);
  header.set([MAGIC, GAZETTEER_FORMAT_VERSION, cities.count, keys.length]);
  let offset = HEADER_WORDS * 4;
  const placed = SECTIONS.map((name, i) => {
    header[4 + i] = offset;
    const at = offset;
    offset = align4(offset + body[name].byteLength);
    return { at, bytes: body[name] };
  });
  const file = new Uint8Array(offset + 4);
  file.set(bytesOf(header), 0);
  for (const { at, bytes } of placed) file.set(bytes, at);
  // The end of the last section, so a reader knows the tables' length.
  new DataView(file.buffer).setUint32(offset, placed.at(-1)!.at + body.tables.byteLength, true);
  return file;
}

const bytesOf = (array: Uint32Array | Int32Array | Uint16Array) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);

/** Views over a file's bytes (no copy); null when it is not an index file of this version. */
export function readGazetteerIndexFile(file: Uint8Array): GazetteerIndex | null {
  // Typed arrays need their offsets aligned to the element size from the start of the buffer.
  const bytes = file.byteOffset % 4 === 0 ? file : file.slice();
  if (bytes.byteLength < HEADER_WORDS * 4) return null;
  const header = new Uint32Array(bytes.buffer, bytes.byteOffset, HEADER_WORDS);
  if (header[0] !== MAGIC || header[1] !== GAZETTEER_FORMAT_VERSION) return null;
  const count = header[2]!;
  const keyCount = header[3]!;
  const at = (name: Section) => bytes.byteOffset + header[4 + SECTIONS.indexOf(name)]!;
  const u32 = (name: Section, n: number) => new Uint32Array(bytes.buffer, at(name), n);
  const u16 = (name: Section, n: number) => new Uint16Array(bytes.buffer, at(name), n);
  const i32 = (name: Section, n: number) => new Int32Array(bytes.buffer, at(name), n);
  const nameStart = u32("nameStart", count + 1);
  const keyStart = u32("keyStart", keyCount + 1);
  const tablesEnd = new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.byteLength - 4, true);
  const tablesStart = header[4 + SECTIONS.indexOf("tables")]!;
  const tables = JSON.parse(new TextDecoder().decode(bytes.subarray(tablesStart, tablesEnd))) as {
    countryCodes: string[];
    admin1: string[];
  };
  return {
    count,
    keyCount,
    ids: u32("ids", count),
    population: u32("population", count),
    lat: i32("lat", count),
    lng: i32("lng", count),
    country: u16("country", count),
    admin1: u16("admin1", count),
    nameStart,
    names: new Uint8Array(bytes.buffer, at("names"), nameStart[count]!),
    keyStart,
    keyBytes: new Uint8Array(bytes.buffer, at("keyBytes"), keyStart[keyCount]!),
    keyCity: u32("keyCity", keyCount),
    byId: u32("byId", count),
    countryCodes: tables.countryCodes,
    admin1Codes: tables.admin1,
  };
}
