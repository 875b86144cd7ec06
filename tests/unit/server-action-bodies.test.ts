/**
 * A server action's body that React's reply decoder cannot read (not JSON, not a list of
 * arguments, a reference to a part that was never sent, a multipart body that does not parse, or
 * past Next's 1 MB limit) makes Next answer 500 before any action runs (its action handler sets 500
 * for every error, a decoding one too). middleware.ts refuses such a body first: 400, or 413 past
 * the limit. What a browser sends (lib/http/early-refusal.ts serverActionBodyRefusal) goes through.
 */
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { SERVER_ACTION_BODY_BYTES, serverActionBodyRefusal } from "@/lib/http/early-refusal";
import middleware from "@/middleware";

const ACTION = "7fd18830857fc63e8ea107bc1d5daad0cc67ff36e3";
const TEXT = "text/plain;charset=UTF-8";
const MULTIPART = "multipart/form-data; boundary=x";

const post = (body: BodyInit, contentType: string, path = "/register") =>
  middleware(
    new NextRequest(`http://localhost:3000${path}`, {
      method: "POST",
      headers: { origin: "http://localhost:3000", host: "localhost:3000", "next-action": ACTION, "content-type": contentType },
      body,
    }),
  );

const UNREADABLE = [
  "",
  "garbage",
  "{",
  '"x"',
  "null",
  "42",
  '{"0":"a"}',
  '["$"]',
  '["$1"]',
  '["$@1"]',
  '["$Q1"]',
  '["$W1"]',
  '[{"a":"$K1"}]',
  '["$h1"]',
  '["$F1"]',
  '["$i1"]',
  '["$B1"]',
  '["$S1"]',
  '["$nabc"]',
  '["$Z"]',
  '[{"a":{"b":1}},"$0:0:zz"]',
  '["$0:1:a:b"]',
];

/** What React's encodeReply sends for the app's actions' arguments when no part needs its own row. */
const READABLE = [
  "[]",
  '["a@b.co"]',
  '[{"email":"a@b.co","password":"Str0ng!Passw0rd","firstName":"Ada","lastName":"Lovelace","dateOfBirth":"1990-01-01"}]',
  '["token","$$ starts with a dollar","$undefined"]',
  '["$D2026-12-05T00:00:00.000Z","$n123","$-0","$NaN","$Infinity","$-Infinity","$T"]',
  '[{"nested":[{"deeper":["$undefined",null,true,1.5]}]}]',
  // One object passed twice: the second is the path to the first.
  '[{"a":{"b":1}},"$0:0:a"]',
  // A long list, within the limit: checked one value at a time.
  `[${Array(200_000).fill("0").join(",")}]`,
];

describe("server action bodies Next cannot decode (it would answer 500)", () => {
  it("let through every body React's own encoder makes of arguments (text or multipart)", async () => {
    // @ts-expect-error -- React's reply encoder, as Next bundles it for the browser, publishes no types.
    const { encodeReply } = (await import("next/dist/compiled/react-server-dom-turbopack/client.edge")) as {
      encodeReply: (args: unknown[]) => Promise<string | FormData>;
    };
    const shared = { b: 1 };
    const form = new FormData();
    form.set("email", "a@b.co");
    const withFile = new FormData();
    withFile.set("caption", "Us");
    withFile.set("photo", new File(["jpeg bytes"], "us.jpg", { type: "image/jpeg" }));
    const cases: unknown[][] = [
      [],
      [{ email: "a@b.co", password: "$tr0ng!", nested: [1, null, true, { x: "$$" }] }],
      ["$starts with a dollar", undefined, new Date(0), 10n, -0, Number.NaN, Number.POSITIVE_INFINITY],
      [{ a: shared }, shared],
      [null, form],
      [new Map([[1, 2]]), new Set(["a"])],
      [{ nested: new Map([["a", new Set([1, { b: shared }])]]) }, shared],
      [new Blob(["a photo"]), new Uint8Array([1, 2, 3]), new Float64Array([0.5])],
      [null, withFile],
    ];
    for (const args of cases) {
      const encoded = await encodeReply(args);
      const request = new Request("http://x", { method: "POST", body: encoded });
      const type = request.headers.get("content-type") ?? TEXT;
      const body = new Uint8Array(await request.arrayBuffer());
      expect(await serverActionBodyRefusal(type, body), String(encoded)).toBeNull();
    }
  });

  it("are refused with 400 before Next reads them", async () => {
    for (const body of UNREADABLE) {
      const response = await post(body, TEXT);
      expect(response.status, body).toBe(400);
      expect((await response.json()).error.code, body).toBe("VALIDATION_ERROR");
    }
  });

  it("refuse broken UTF-8 and a multipart body that does not parse", async () => {
    expect((await post(new Uint8Array([0x5b, 0x22, 0xff, 0x22, 0x5d]), TEXT)).status).toBe(400);
    expect((await post("garbage", MULTIPART)).status).toBe(400);
    expect((await post('--x\r\nContent-Disposition: form-data; name="0"\r\n\r\n[]\r\n', MULTIPART)).status).toBe(400);
  });

  it("refuse a multipart body whose arguments name a part it lacks, or one of another kind", async () => {
    const multipart = (parts: Record<string, string | Blob>) => {
      const form = new FormData();
      for (const [key, value] of Object.entries(parts)) form.set(key, value);
      return new Request("http://x", { method: "POST", body: form });
    };
    const refused: Record<string, string | Blob>[] = [
      { "0": "garbage" },
      { "0": '{"a":1}' },
      { "0": new Blob(["[]"]) },
      { "0": '["$1"]' },
      { "0": '["$1"]', "1": "garbage" },
      { "0": '["$1:a"]', "1": "{}" },
      { "0": '["$Q1"]', "1": '{"a":1}' },
      { "0": '["$Q1","$W1"]', "1": "[]" },
      { "0": '["$B1"]', "1": "text, not a file" },
      { "0": '["$o1","$o1"]', "1": new Blob(["ab"]) },
      { "0": '["$@1"]', "1": "1" },
      { "0": '["$R1"]', "1": "[]" },
      { "0": '["$h1"]', "1": "[]" },
      { "0": '["$2"]', "1": '["$2"]' },
      { "0": `["$n${"9".repeat(301)}"]` },
    ];
    for (const parts of refused) {
      const request = multipart(parts);
      const response = await post(new Uint8Array(await request.arrayBuffer()), request.headers.get("content-type")!);
      expect(response.status, JSON.stringify(parts)).toBe(400);
    }
    // A form posted before the page's script ran names its action in its fields: Next reads it.
    const early = multipart({ $ACTION_ID_7fd18830857fc63e8ea107bc1d5daad0cc67ff36e3: "", email: "a@b.co" });
    expect((await post(new Uint8Array(await early.arrayBuffer()), early.headers.get("content-type")!)).status).toBe(200);
  });

  it("refuse a body past Next's limit with 413", async () => {
    const response = await post(`["${"a".repeat(SERVER_ACTION_BODY_BYTES)}"]`, TEXT);
    expect(response.status).toBe(413);
    expect((await response.json()).error.code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("let through what a browser's form sends, text or multipart", async () => {
    for (const body of READABLE) {
      expect(await serverActionBodyRefusal(TEXT, new TextEncoder().encode(body)), body).toBeNull();
      expect((await post(body, TEXT)).status, body).toBe(200);
    }
    const form = new FormData();
    form.set("1_email", "a@b.co");
    form.set("0", '["$K1"]');
    const encoded = new Request("http://x", { method: "POST", body: form });
    const type = encoded.headers.get("content-type")!;
    expect((await post(new Uint8Array(await encoded.arrayBuffer()), type)).status).toBe(200);
  });
});
