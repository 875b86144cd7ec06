import { getEventListeners } from "node:events";
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

  it("writes a list read in pages as the list of its pages' items, empty pages and all", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(fc.jsonValue(), { maxLength: 4 }), { maxLength: 4 }), fc.jsonValue(), async (pages, after) => {
        async function* paged() {
          yield* pages;
        }
        const written = (await read(jsonStream({ list: paged(), after }, 16))).text;
        expect(written).toBe(JSON.stringify({ list: pages.flat(), after }, null, 2));
      }),
    );
  });

  it("tells its end once: finished, failed or cancelled by its reader", async () => {
    const ends: unknown[] = [];
    await read(jsonStream({ list: [1, 2] }, 16, (error) => ends.push(error)));
    expect(ends).toEqual([undefined]);

    const failure = new Error("The page could not be read");
    async function* failing() {
      yield [1];
      throw failure;
    }
    await expect(read(jsonStream({ list: failing() }, 1, (error) => ends.push(error)))).rejects.toBe(failure);
    expect(ends).toEqual([undefined, failure]);

    let pagesRead = 0;
    async function* endless() {
      for (;;) yield [++pagesRead];
    }
    const reader = jsonStream({ list: endless() }, 1, (error) => ends.push(error)).getReader();
    await reader.read();
    await reader.cancel("gone");
    expect(ends).toEqual([undefined, failure, "gone"]);
    const readBeforeCancel = pagesRead;
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(pagesRead).toBe(readBeforeCancel);
  });
});

describe("jsonStream stopped by its signal", () => {
  it("tells its end only once a page read under way has finished, and reads no page after it", async () => {
    const log: string[] = [];
    let finishRead = () => {};
    async function* pages() {
      for (let page = 1; ; page++) {
        log.push(`read ${page}`);
        await new Promise<void>((resolve) => (finishRead = resolve));
        log.push(`read ${page} done`);
        yield [page];
      }
    }
    const stop = new AbortController();
    const stream = jsonStream({ list: pages() }, 1_000_000, (error) => log.push(`end ${String(error)}`), stop.signal);
    const reading = stream.getReader().read();
    await new Promise((resolve) => setTimeout(resolve, 5));
    stop.abort("too long");
    // The end (the transaction's) waits for the read that uses it.
    expect(log).toEqual(["read 1"]);
    finishRead();
    await reading.catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(log).toEqual(["read 1", "read 1 done", "end too long"]);
  });

  it("lets go of its signal once it ended: a timeout's signal keeps its listener, and the document with it, until it fires", async () => {
    const finished = new AbortController();
    await read(jsonStream({ list: [1, 2] }, undefined, undefined, finished.signal));
    expect(getEventListeners(finished.signal, "abort")).toHaveLength(0);

    const cancelled = new AbortController();
    await jsonStream({ list: [1, 2] }, 1, undefined, cancelled.signal).cancel();
    expect(getEventListeners(cancelled.signal, "abort")).toHaveLength(0);
  });
});
