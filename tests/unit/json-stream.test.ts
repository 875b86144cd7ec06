import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonStream } from "@/lib/http/json-stream";

const read = async (stream: ReadableStream<Uint8Array>) => {
  const parts: Uint8Array[] = [];
  const reader = stream.getReader();
  for (let part = await reader.read(); !part.done; part = await reader.read()) parts.push(part.value);
  return { text: new TextDecoder().decode(Buffer.concat(parts)), parts: parts.length };
};

describe("jsonStream", () => {
  it("writes the very bytes of JSON.stringify(document, null, 2), for any document", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.string(), fc.oneof(fc.jsonValue(), fc.array(fc.jsonValue()), fc.constant(undefined))),
        async (document) => {
          expect((await read(jsonStream(document, 16))).text).toBe(JSON.stringify(document, null, 2));
        },
      ),
    );
  });

  it("sends a long list in parts, dates as JSON writes them", async () => {
    const at = new Date("2026-12-04T05:00:00.000Z");
    const document = {
      exportedAt: at.toISOString(),
      messages: Array.from({ length: 2_000 }, (_, i) => ({ i, body: "x".repeat(100), at })),
    };
    const { text, parts } = await read(jsonStream(document, 64 * 1024));
    expect(text).toBe(JSON.stringify(document, null, 2));
    expect(parts).toBeGreaterThan(3);
  });
});
