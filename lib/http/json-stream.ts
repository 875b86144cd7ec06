/**
 * A large JSON document as a stream of bytes, the same bytes as `JSON.stringify(document, null, 2)`:
 * each top-level list is written an item at a time, so the text of the whole document is never
 * held at once, and the response is streamed (Vercel refuses a buffered answer over 4.5 MB).
 * A top-level value may also be a list read in pages (`Pages`): written as the list of all its
 * pages' items, one page in memory at a time, read only when the stream reaches it.
 * `onEnd` is told once when the stream ends: finished (no error), failed, cancelled by its reader,
 * or stopped by `signal` (read or not, once a page read under way finished: the stream then fails on
 * its next read).
 */
export function jsonStream(
  document: Record<string, unknown>,
  flushBytes = 64 * 1024,
  onEnd: (error?: unknown) => void = () => {},
  signal?: AbortSignal,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const chunks = jsonChunks(document);
  let ended = false;
  // As on cancel: a page read under way finishes, and no other starts, before `onEnd` closes what it reads.
  const stop = () =>
    chunks.return(undefined).then(
      () => end(signal?.reason),
      () => end(signal?.reason),
    );
  const onAbort = () => void stop();
  const end = (error?: unknown) => {
    if (ended) return;
    ended = true;
    // A timeout's signal holds its listeners until it fires: the document would stay in memory that long.
    signal?.removeEventListener("abort", onAbort);
    onEnd(error);
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  return new ReadableStream({
    async pull(controller) {
      let text = "";
      try {
        signal?.throwIfAborted();
        for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
          text += next.value;
          if (text.length >= flushBytes) break;
        }
      } catch (error) {
        end(error);
        throw error;
      }
      if (text) controller.enqueue(encoder.encode(text));
      else {
        controller.close();
        end();
      }
    },
    async cancel(reason) {
      // A page read under way finishes first: what `onEnd` closes is no longer in use.
      await chunks.return(undefined);
      end(reason ?? new Error("The reader cancelled the stream"));
    },
  });
}

/** A list read a page at a time (the pages' items, in order, are the list). */
export type Pages<Item> = AsyncIterable<Item[]>;

export const isPages = (value: unknown): value is Pages<unknown> =>
  typeof value === "object" && value !== null && Symbol.asyncIterator in value;

/** Every line after the first moved right by `spaces` (a nested value's lines, as stringify indents them). */
const indented = (text: string, spaces: number) => text.replaceAll("\n", `\n${" ".repeat(spaces)}`);

async function* jsonChunks(document: Record<string, unknown>): AsyncGenerator<string> {
  // Keys whose value JSON leaves out are left out here too.
  const entries = Object.entries(document).filter(
    ([, value]) => value !== undefined && typeof value !== "function" && typeof value !== "symbol",
  );
  if (entries.length === 0) return yield "{}";
  yield "{";
  for (const [index, [key, value]] of entries.entries()) {
    yield `${index === 0 ? "" : ","}\n  ${JSON.stringify(key)}: `;
    const pages = isPages(value) ? value : Array.isArray(value) ? [value] : null;
    if (!pages) {
      yield indented(JSON.stringify(value, null, 2), 2);
      continue;
    }
    let count = 0;
    for await (const page of pages) {
      for (const item of page) yield `${count++ === 0 ? "[" : ","}\n    ${indented(JSON.stringify(item, null, 2) ?? "null", 4)}`;
    }
    yield count === 0 ? "[]" : "\n  ]";
  }
  yield "\n}";
}
