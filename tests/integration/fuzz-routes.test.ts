/**
 * Every route handler under app/api, called with generated input: bodies built from the route's
 * own zod schema (`declared` on the route() wrapper's handler) mixed with hostile strings, raw
 * bytes, wrong content types, bad JSON, hostile path params and query strings; signed out, with
 * a session cookie (and its CSRF token, or a wrong one) and with a bearer token. No answer may be
 * a 5xx. Fixed seed and bounded runs, so a failure replays exactly.
 */
import { readdir } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { getDb } from "@/db/client";
import { startApiSession } from "@/lib/auth/api-tokens";
import { COUPLE_TYPE_VALUES } from "@/lib/couples/rules";
import { INTEREST_VALUES } from "@/lib/interests/catalogue";
import type { RouteDeclaration, RouteHandler } from "@/lib/http/route";
import { browserSession, freshAddress } from "../support/api";
import { withCouple } from "../support/couples";
import { jpeg } from "../support/onboarding";

const SEED = 20260911;
const RUNS_PER_HANDLER = 35;
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const API_DIR = path.join(import.meta.dirname, "../../app/api");

type Route = { file: string; template: string; params: { name: string; catchAll: boolean }[] };
type Declared = RouteHandler & { declared?: RouteDeclaration };

/** app/api/**\/route.ts, found by walking the folder, with each one's URL and path params. */
async function routeFiles(): Promise<Route[]> {
  const entries = await readdir(API_DIR, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name === "route.ts")
    .map((entry) => {
      const folder = path.relative(API_DIR, entry.parentPath);
      const segments = folder ? folder.split(path.sep) : [];
      const params = segments
        .filter((s) => s.startsWith("["))
        .map((s) => ({ name: s.replace(/[[\].]/g, ""), catchAll: s.startsWith("[...") }));
      return { file: path.join(entry.parentPath, entry.name), template: `/api/${segments.join("/")}`, params };
    })
    .sort((a, b) => a.template.localeCompare(b.template));
}

const HOSTILE_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u0001\u0008\u001b\u007f\u0085\u009f",
  "\ud800",
  "x\udfffy",
  "\u202eevil\u202c",
  "line\u2028break\u2029",
  "a\r\nb\tc",
  "x".repeat(10_000),
  "é".repeat(300),
  "' OR 1=1; --",
  "'; DROP TABLE users; --",
  "<script>alert(1)</script>",
  '{"__proto__":{"admin":true}}',
  "%ff",
  "%00",
  "../../../etc/passwd",
  "..%2f..%2fetc",
  "null",
  "NaN",
  "-1",
  "1e309",
  "00000000-0000-0000-0000-000000000000",
  "geonames:2267057",
  "😀👩‍❤️‍👨",
];

const hostileString = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ maxLength: 20 }),
);
const hostileNumber = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -1, 1e308, Number.MAX_SAFE_INTEGER + 2));
const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie("value"), { maxKeys: 4 }),
  ),
})).value;

type Def = { type: string; [key: string]: unknown };
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
const bagOf = (schema: z.ZodType): Record<string, number | undefined> =>
  (schema as unknown as { _zod: { bag: Record<string, number> } })._zod.bag ?? {};

/** Values a field's name suggests its rules accept (e-mail, password, dates, places, tokens, ids, picks). */
const known: { ids: string[]; photo: Uint8Array } = { ids: [], photo: new Uint8Array() };
function hinted(key: string): fc.Arbitrary<unknown> | null {
  if (/e-?mail/i.test(key)) return fc.emailAddress({ size: "small" });
  if (/password/i.test(key)) return fc.constant("Str0ng!Passw0rd");
  if (/date/i.test(key)) return fc.constantFrom("1990-05-17", "2000-02-29", "1899-12-31");
  if (/place_?id|location/i.test(key)) return fc.constantFrom("geonames:2267057", "geonames:2735943");
  if (/token|code/i.test(key)) return fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 64, maxLength: 64 });
  if (/url|image/i.test(key))
    return fc
      .string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 32, maxLength: 32 })
      .map((hex) => `/api/images/avatar/${hex}.jpg`);
  if (/^(?:id|ids|entityId|userId|coupleId)$/i.test(key)) return fc.constantFrom(...known.ids);
  if (/couple_?types/i.test(key)) return fc.subarray([...COUPLE_TYPE_VALUES], { minLength: 1, maxLength: 3 });
  if (/interests/i.test(key)) return fc.subarray([...INTEREST_VALUES], { minLength: 5, maxLength: 8 });
  return null;
}

const SPIKES = ["\u0000", "\u0000", "\u0007", "\ud800", "\u202e", "\u0085", "\u2028", "\n", "%ff", "'", "\\"];
const spike = (text: string, what: string, at: number) => text.slice(0, at % (text.length + 1)) + what + text.slice(at % (text.length + 1));

/** A fitting value with a hostile character slipped in (a NUL inside a well-formed e-mail, say). */
const spiked = (fitting: fc.Arbitrary<unknown>) =>
  fc
    .tuple(fitting, fc.constantFrom(...SPIKES), fc.nat())
    .map(([value, what, at]) => (typeof value === "string" ? spike(value, what, at) : value));

/** A leaf that mostly fits, sometimes spiked or hostile text, now and then anything at all. */
const mixedLeaf = (fitting: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 8, arbitrary: fitting },
    { weight: 2, arbitrary: spiked(fitting) },
    { weight: 1, arbitrary: hostileString },
    { weight: 1, arbitrary: hostileValue },
  );

/** The paths of a value's text leaves. */
function textPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === "string") return [path];
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([key, item]) => textPaths(item, [...path, Array.isArray(value) ? Number(key) : key]));
  return [];
}

/** A value that fits the schema in every field but one text field, which is spiked or hostile. */
const oneFieldHostile = (schema: z.ZodType) =>
  fc
    .tuple(fromSchema(schema, "", false), fc.nat(), fc.oneof(fc.constantFrom(...SPIKES), hostileString), fc.nat(), fc.boolean())
    .map(([value, pick, what, at, inside]) => {
      const paths = textPaths(value);
      const path = paths[pick % Math.max(paths.length, 1)];
      if (!path || path.length === 0) return value;
      const parent = path
        .slice(0, -1)
        .reduce<Record<string | number, unknown>>(
          (node, key) => node[key] as Record<string | number, unknown>,
          value as Record<string, unknown>,
        );
      const key = path.at(-1)!;
      parent[key] = inside ? spike(parent[key] as string, what, at) : what;
      return value;
    });

/**
 * Values a schema might accept (object, string, number, enum, literal, array, optional, union,
 * pipe; field names hint at formats), each leaf sometimes hostile: mostly valid bodies with one
 * nasty field, so the nasty value gets past the other checks and reaches the domain.
 */
function fromSchema(schema: z.ZodType, key = "", mix = true): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const inner = (name: string) => fromSchema(def[name] as z.ZodType, key, mix);
  const hint = hinted(key);
  const leaf = mix ? mixedLeaf : (fitting: fc.Arbitrary<unknown>) => fitting;
  switch (def.type) {
    case "object": {
      const shape = def.shape as Record<string, z.ZodType>;
      const fields = Object.fromEntries(Object.entries(shape).map(([name, value]) => [name, fromSchema(value, name, mix)]));
      return fc.record(fields, {
        requiredKeys: Object.keys(fields).filter((name) => !["optional", "default"].includes(defOf(shape[name]!).type)),
      });
    }
    case "optional":
    case "nullable":
    case "default":
    case "catch":
    case "readonly":
    case "nonoptional":
      return inner("innerType");
    case "union":
      return fc.oneof(...(def.options as z.ZodType[]).map((option) => fromSchema(option, key, mix)));
    case "pipe":
      // preprocess(fn, schema) is pipe(transform, schema); schema.transform(fn) is pipe(schema, transform).
      return defOf(def.in as z.ZodType).type === "transform" ? inner("out") : inner("in");
    case "array":
      return hint ? leaf(hint) : fc.array(inner("element"), { maxLength: 8 });
    case "string": {
      const bag = bagOf(schema);
      return leaf(hint ?? fc.string({ unit: "grapheme-ascii", minLength: bag.minimum ?? 0, maxLength: Math.min(bag.maximum ?? 30, 60) }));
    }
    case "number": {
      const bag = bagOf(schema);
      return leaf(fc.integer({ min: Math.max(bag.minimum ?? -1000, -1e6), max: Math.min(bag.maximum ?? 1000, 1e6) }));
    }
    case "boolean":
      return leaf(fc.boolean());
    case "enum":
      return leaf(fc.constantFrom(...Object.values(def.entries as Record<string, string>)));
    case "literal":
      return leaf(fc.constantFrom(...(def.values as unknown[])));
    default:
      return leaf(hint ?? hostileValue);
  }
}

/** A JSON text from the schema, or hostile, or not JSON at all. */
function jsonText(schema: z.ZodType | undefined): fc.Arbitrary<string> {
  const objects = schema
    ? fc.oneof(
        { weight: 4, arbitrary: oneFieldHostile(schema) },
        { weight: 2, arbitrary: fromSchema(schema) },
        { weight: 1, arbitrary: fromSchema(schema, "", false) },
        { weight: 1, arbitrary: hostileValue },
      )
    : hostileValue;
  return fc.oneof(
    { weight: 6, arbitrary: objects.map((value) => JSON.stringify(value) ?? "null") },
    { weight: 1, arbitrary: objects.map((value) => (JSON.stringify(value) ?? "").replace(/"/, '"\\ud800')) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "{",
        "[]",
        "null",
        '"text"',
        "{}}",
        '{"a":1,}',
        `{"a":${"[".repeat(5000)}${"]".repeat(5000)}}`,
        "\u0000",
        '{"a":"\\u0000"}',
      ),
    },
  );
}

type Body = { bytes?: Uint8Array | string | FormData; contentType?: string };

/** A request body: JSON from the schema, raw bytes, bad JSON, wrong content types, hostile multipart. */
function bodyFor(schema: z.ZodType | undefined): fc.Arbitrary<Body> {
  const contentType = fc.constantFrom(
    "application/json",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/json; charset=latin1",
    undefined,
  );
  // The onboarding steps' form: valid fields and a real photo, each part sometimes hostile or bytes.
  const text = (fitting: fc.Arbitrary<string>) => fc.oneof({ weight: 4, arbitrary: fitting }, { weight: 1, arbitrary: hostileString });
  const file = fc.oneof(fc.constant(known.photo), fc.uint8Array({ maxLength: 256 }));
  const multipart = fc
    .record(
      {
        occupation: text(fc.constant("Engineer")),
        locationName: text(fc.constant("Lisbon, Portugal")),
        locationPlaceId: text(fc.constantFrom("geonames:2267057", "%ff")),
        "interests[]": fc.array(text(fc.constantFrom(...INTEREST_VALUES)), { maxLength: 8 }),
        couple_name: text(fc.constant("Ada & Grace")),
        "coupleTypes[]": fc.array(text(fc.constantFrom(...COUPLE_TYPE_VALUES)), { maxLength: 4 }),
        bio: text(fc.constant("We travel, we cook, we argue about maps.")),
        userImage: file,
        coupleProfileImage: file,
        couplePhotos: fc.array(file, { maxLength: 2 }),
        [HOSTILE_STRINGS[3]!]: hostileString,
      },
      { requiredKeys: [] },
    )
    .map((parts) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(parts)) {
        for (const item of Array.isArray(value) ? value : [value]) {
          form.append(
            name,
            typeof item === "string" ? item : new File([new Uint8Array(item as Uint8Array)], "photo.jpg", { type: "image/jpeg" }),
          );
        }
      }
      return { bytes: form };
    });
  return fc.oneof(
    { weight: 6, arbitrary: fc.record({ bytes: jsonText(schema), contentType }) },
    { weight: 2, arbitrary: fc.record({ bytes: fc.uint8Array({ maxLength: 512 }), contentType }) },
    { weight: 2, arbitrary: multipart },
    { weight: 1, arbitrary: fc.constant({}) },
  );
}

/** Path params: valid-looking ids (ours and another couple's), hostile text, and for catch-alls lists. */
function paramsFor(route: Route, known: string[], declared: z.ZodType | undefined): fc.Arbitrary<Record<string, string | string[]>> {
  const segment = fc.oneof(fc.constantFrom(...known, "user", "couple", "avatar", "couple-photo"), hostileString);
  const hostile = fc.record(
    Object.fromEntries(route.params.map((p) => [p.name, p.catchAll ? fc.array(segment, { minLength: 1, maxLength: 4 }) : segment])),
  );
  if (!declared || route.params.some((p) => p.catchAll)) return hostile;
  // Next hands a handler its params as text: whatever the schema leads to is sent as text.
  const asText = (value: unknown) => (typeof value === "string" ? value : (JSON.stringify(value) ?? ""));
  const fromDeclared = fromSchema(declared).map((value) =>
    Object.fromEntries(Object.entries(value as object).map(([key, item]) => [key, asText(item)])),
  );
  return fc.oneof(hostile, fromDeclared);
}

/** A query string: from the schema's keys, or hostile names and values, or raw undecodable bytes. */
function queryFor(schema: z.ZodType | undefined): fc.Arbitrary<string> {
  const keys = schema && defOf(schema).type === "object" ? Object.keys(defOf(schema).shape as object) : [];
  const pair = fc.tuple(
    fc.oneof(fc.constantFrom(...keys, "to", "ready", "limit"), hostileString),
    fc.oneof(hostileString, hostileNumber.map(String)),
  );
  const asQuery = (value: unknown) =>
    new URLSearchParams(
      Object.entries(value as object).flatMap(([key, item]) => [item].flat().map((one): [string, string] => [key, String(one)])),
    ).toString();
  return fc.oneof(
    ...(schema && keys.length ? [oneFieldHostile(schema).map(asQuery), fromSchema(schema, "", false).map(asQuery)] : []),
    fc.array(pair, { maxLength: 4 }).map((pairs) => new URLSearchParams(pairs).toString()),
    fc.constantFrom("%ff=%ff", "a=%00", "limit=%ff", "%=%", "query=%E2%80%AE", "to=a%0d%0ab"),
  );
}

type Auth = "none" | "cookie" | "cookie-wrong-csrf" | "bearer";

describe("fuzzing every route handler", async () => {
  const routes = await routeFiles();
  let state: { userId: string; email: string; known: string[] };

  beforeAll(async () => {
    const own = await withCouple();
    const other = await withCouple();
    state = { userId: own.user.id, email: own.user.email, known: [own.coupleId, other.coupleId, own.user.id, other.user.id] };
    known.ids = state.known;
    known.photo = new Uint8Array(await jpeg(500, 500));
  });

  async function headersFor(auth: Auth): Promise<Record<string, string>> {
    if (auth === "none") return {};
    if (auth === "bearer") {
      const session = await startApiSession(await getDb(), { id: state.userId, email: state.email, emailVerifiedAt: new Date() });
      return { authorization: `Bearer ${session.access_token}` };
    }
    const session = await browserSession(state.userId);
    return { cookie: session.cookie, "x-csrf-token": auth === "cookie" ? session.csrf : "wrong" };
  }

  it("finds the route files", () => {
    expect(routes.length).toBeGreaterThanOrEqual(31);
  });

  for (const route of routes) {
    it(`never answers 5xx: ${route.template}`, { timeout: 120_000 }, async () => {
      const exported = (await import(route.file)) as Record<string, Declared | undefined>;
      const handlers = METHODS.flatMap((method) => (exported[method] ? [[method, exported[method]] as const] : []));
      expect(handlers.length).toBeGreaterThan(0);
      for (const [method, handler] of handlers) {
        const declared = handler.declared;
        const request = fc.record({
          auth: fc.constantFrom<Auth>("none", "cookie", "cookie", "cookie-wrong-csrf", "bearer", "bearer"),
          params: paramsFor(route, state.known, declared?.params),
          query: queryFor(method === "GET" ? declared?.input : undefined),
          body: method === "GET" ? fc.constant<Body>({}) : bodyFor(declared?.input),
          address: fc.oneof(fc.constant("198.51.100.9"), fc.constant(null)),
        });
        await fc.assert(
          fc.asyncProperty(request, async ({ auth, params, query, body, address }) => {
            const headers = new Headers({ "x-forwarded-for": address ?? freshAddress(), ...(await headersFor(auth)) });
            if (body.contentType) headers.set("content-type", body.contentType);
            // The URL is only what the handler sees of the path; the params themselves go as they are.
            const encode = (segment: string) => encodeURIComponent(segment.replace(/\p{Cs}/gu, "\ufffd"));
            const pathname = route.template.replace(/\[(\.\.\.)?(\w+)\]/g, (_, __, name: string) =>
              [params[name] ?? ""].flat().map(encode).join("/"),
            );
            const url = new URL(`${pathname}?${query}`, "http://localhost:3000");
            const init = { method, headers, body: body.bytes as BodyInit | undefined };
            const response = await handler(new NextRequest(url, init), { params: Promise.resolve(params) });
            // The live stream stays open until it ends itself: its status and headers are the answer.
            if (response.headers.get("content-type")?.startsWith("text/event-stream")) await response.body?.cancel();
            else await response.arrayBuffer();
            if (response.status >= 500) throw new Error(`${method} ${url.pathname}${url.search} (${auth}) answered ${response.status}`);
          }),
          { seed: SEED, numRuns: RUNS_PER_HANDLER, endOnFailure: true },
        );
      }
    });
  }
});
