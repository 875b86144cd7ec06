import { NextResponse } from "next/server";
import { env } from "@/lib/env";
import { SSE_HEADERS } from "@/lib/live/sse";

const opening = new TextEncoder().encode(": idle\n\n");

/**
 * The live bench's floor (BENCH_BARE=1 only, else a 404): a streamed response that sends one
 * comment and then nothing until the client goes, so what an open one costs the server is what
 * Next and Node hold for any open response, beside what GET /api/stream adds to it.
 */
export function GET(): Response {
  if (!env().BENCH_BARE) return NextResponse.json({ error: { code: "NOT_FOUND", message: "Not found" } }, { status: 404 });
  // The comment makes Next send the headers; the stream is cancelled when the client goes.
  const body = new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(opening) });
  return new Response(body, { headers: SSE_HEADERS });
}
