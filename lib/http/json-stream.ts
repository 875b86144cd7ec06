/**
 * A large JSON document as a stream of bytes, the same bytes as `JSON.stringify(document, null, 2)`:
 * each top-level list is written an item at a time, so the text of the whole document is never
 * held at once, and the response is streamed (Vercel refuses a buffered answer over 4.5 MB).
 */
export function jsonStream(document: Record<string, unknown>, flushBytes = 64 * 1024): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const chunks = jsonChunks(document);
  return new ReadableStream({
    pull(controller) {
      let text = "";
      for (let next = chunks.next(); !next.done; next = chunks.next()) {
        text += next.value;
        if (text.length >= flushBytes) break;
      }
      if (text) controller.enqueue(encoder.encode(text));
      else controller.close();
    },
  });
}

/** Every line after the first moved right by `spaces` (a nested value's lines, as stringify indents them). */
const indented = (text: string, spaces: number) => text.replaceAll("\n", `\n${" ".repeat(spaces)}`);

function* jsonChunks(document: Record<string, unknown>): Generator<string> {
  // Keys whose value JSON leaves out are left out here too.
  const entries = Object.entries(document).filter(
    ([, value]) => value !== undefined && typeof value !== "function" && typeof value !== "symbol",
  );
  if (entries.length === 0) return yield "{}";
  yield "{";
  for (const [index, [key, value]] of entries.entries()) {
    yield `${index === 0 ? "" : ","}\n  ${JSON.stringify(key)}: `;
    if (!Array.isArray(value) || value.length === 0) {
      yield indented(JSON.stringify(value, null, 2), 2);
      continue;
    }
    yield "[";
    for (const [at, item] of value.entries()) yield `${at === 0 ? "" : ","}\n    ${indented(JSON.stringify(item, null, 2) ?? "null", 4)}`;
    yield "\n  ]";
  }
  yield "\n}";
}
