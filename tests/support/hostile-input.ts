/**
 * The hostile-input corpus: strings built to make a backtracking pattern or a per-character
 * transform do work that grows faster than their length (repeated punctuation, '@', '.', spaces,
 * brackets, emoji, combining marks, line breaks, near-URLs and near-addresses). The adversarial
 * test feeds it to every schema and renderer; `npm run bench`'s hostile section runs it beside
 * normal traffic.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { describeDevice } from "@/lib/auth/device";
import { BIO_MAX } from "@/lib/couples/rules";
import { DIRECTORY_SEARCH_MAX, pageFilters } from "@/lib/directory/rules";
import { mentionPrefixQuery } from "@/lib/forum/mentions";
import { BODY_MAX, MENTIONS_MAX, SEARCH_QUERY_MAX } from "@/lib/forum/rules";
import { insertMention, mentionQueryAt } from "@/lib/forum/text";
import { excerpt, renderBody } from "@/lib/plain-text";
import { normalizeText } from "@/lib/places/normalize";

export const HOSTILE_UNITS: readonly { name: string; unit: string; head?: string; tail?: string }[] = [
  { name: "dots", unit: "." },
  { name: "at signs", unit: "@" },
  { name: "spaces", unit: " ", head: "a", tail: "b" },
  { name: "tabs and spaces", unit: " \t", head: "a", tail: "\u0000" },
  { name: "line breaks", unit: "\n \n", head: "a", tail: "b" },
  { name: "Windows line ends", unit: "\r\n", head: "a", tail: "b" },
  { name: "closing brackets", unit: ")", head: "https://example.com/(" },
  { name: "brackets", unit: "([{<>}])" },
  { name: "punctuation", unit: ".,;:!?'’”)]}*_-" },
  { name: "near address", unit: ".", head: "a@", tail: "@" },
  { name: "address-like", unit: "a.", head: "a@" },
  { name: "near URL", unit: ".", head: "see https://example.com/", tail: "a)" },
  { name: "URLs", unit: "http://a.b/ " },
  { name: "mentions", unit: "@Marisol & Thaddeus @", head: "x" },
  { name: "slashes", unit: "/", head: "/", tail: "x" },
  { name: "emoji", unit: "😀👩‍❤️‍👨" },
  { name: "combining marks", unit: "a\u0301\u0302\u0303\u0304" },
  { name: "digits and dots", unit: "1." },
];

/** A hostile string of exactly `length` UTF-16 units (a pair cut at the end is part of the test). */
export function hostile(entry: (typeof HOSTILE_UNITS)[number], length: number): string {
  const head = entry.head ?? "";
  const tail = entry.tail ?? "";
  const body = Math.max(0, length - head.length - tail.length);
  return (head + entry.unit.repeat(Math.ceil(body / entry.unit.length)).slice(0, body) + tail).slice(0, length);
}

/** Past every field's limit: the request body cap is 1 MB. */
export const FAR_PAST = 1_000_000;
/** A field with no limit of its own (a client draft, a provider's answer) gets this much. */
const UNBOUNDED = 100_000;

type Def = Record<string, unknown> & { type: string };
export type Schema = { _zod: { def: Def }; safeParse: (value: unknown) => unknown };
const isSchema = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && "_zod" in value && "safeParse" in value;
const defOf = (schema: Schema) => schema._zod.def;

/** The string's own limit (zod's max_length check), if it has one. */
function maxLength(def: Def): number | null {
  const checks = (def.checks ?? []) as Schema[];
  const limits = checks.map((check) => defOf(check)).filter((check) => check.check === "max_length");
  return limits.length ? Math.min(...limits.map((check) => check.maximum as number)) : null;
}

/**
 * Inputs that put a hostile string (from `make`) in each string field the schema reads, one field
 * at a time, at the field's limit and far past it. Wrappers are looked through; a discriminated
 * union's options keep their discriminator so the field is reached.
 */
export function inputs(schema: Schema, make: (length: number) => string, depth = 0): unknown[] {
  if (depth > 8) return [];
  const def = defOf(schema);
  const inner = (key: string) => (isSchema(def[key]) ? inputs(def[key] as Schema, make, depth + 1) : []);
  switch (def.type) {
    case "string": {
      const max = maxLength(def);
      return [make(max ?? UNBOUNDED), make(FAR_PAST)];
    }
    case "object": {
      const shape = def.shape as Record<string, Schema>;
      return Object.entries(shape).flatMap(([key, field]) => inputs(field, make, depth + 1).map((value) => ({ [key]: value })));
    }
    case "array":
      return inner("element").map((value) => [value]);
    case "union": {
      const discriminator = def.discriminator as string | undefined;
      return (def.options as Schema[]).flatMap((option) => {
        const values = inputs(option, make, depth + 1);
        if (!discriminator) return values;
        const literal = defOf((defOf(option).shape as Record<string, Schema>)[discriminator]!).values as unknown[];
        return values.map((value) => ({ ...(value as object), [discriminator]: literal[0] }));
      });
    }
    case "pipe":
      return inner("in");
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "catch":
    case "readonly":
    case "nonoptional":
      return inner("innerType");
    default:
      return [];
  }
}

/**
 * Every zod schema exported by the domains' schema files (lib/**\/schemas.ts, *-schemas.ts); the
 * server's alone (not lib/**\/client/) with `serverOnly`, as a server process can load them.
 */
export async function allSchemas(options: { serverOnly?: boolean } = {}): Promise<[string, Schema][]> {
  const root = path.resolve(import.meta.dirname, "../../lib");
  const files = readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((file) => /(?:^|[/-])schemas\.ts$/.test(file))
    .filter((file) => !options.serverOnly || !file.split(path.sep).includes("client"));
  const found: [string, Schema][] = [];
  for (const file of files.sort()) {
    const exported = (await import(path.join(root, file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(exported)) if (isSchema(value)) found.push([`${file} ${name}`, value]);
  }
  return found;
}

const mentions = (make: (length: number) => string) =>
  Array.from({ length: MENTIONS_MAX }, (_, i) => ({ coupleId: `c${i}`, name: make(50 - i) }));
/** Every text renderer and per-character transform in lib/, with the hostile string at its limit. */
export const HOSTILE_RENDERERS: [string, (make: (length: number) => string) => unknown][] = [
  ["forum body (links, mentions, paragraphs)", (make) => renderBody(make(BODY_MAX), mentions(make))],
  ["a bio as a body", (make) => renderBody(make(BIO_MAX))],
  ["list excerpt", (make) => excerpt(make(BODY_MAX))],
  ["notification snippet", (make) => excerpt(make(BODY_MAX), 140)],
  ["mention typed at the caret", (make) => mentionQueryAt(make(BODY_MAX), BODY_MAX)],
  ["mention inserted", (make) => insertMention(make(BODY_MAX), BODY_MAX / 2, BODY_MAX / 2, "Marisol & Thaddeus")],
  ["mention search words", (make) => mentionPrefixQuery(make(SEARCH_QUERY_MAX))],
  // A page's search params come in its URL: at most the server's 16 KB of request head.
  ["directory search and filters", (make) => pageFilters({ q: make(DIRECTORY_SEARCH_MAX), interests: make(16_384) }, true)],
  ["place search form", (make) => normalizeText(make(DIRECTORY_SEARCH_MAX * 10))],
  ["device name from a User-Agent", (make) => describeDevice(make(16_384))],
];
