import { NextResponse } from "next/server";
import { env } from "@/lib/env";
import { openStreams } from "@/lib/live/open-streams";

/**
 * The server's memory for the bench (BENCH_BARE=1 only, else a 404): the heap in use after a full
 * collection (when the server runs with --expose-gc, which `npm run bench` gives it) and the
 * resident set, in bytes, and how many live streams are open. Collecting first makes heap figures
 * comparable between two readings.
 */
export function GET(): Response {
  if (!env().BENCH_BARE) return NextResponse.json({ error: { code: "NOT_FOUND", message: "Not found" } }, { status: 404 });
  const gc = (globalThis as { gc?: () => void }).gc;
  // Twice: the first collection's finalizers may free more on the second.
  gc?.();
  gc?.();
  const { heapUsed, external, arrayBuffers, rss } = process.memoryUsage();
  return NextResponse.json({ collected: Boolean(gc), heapUsed, external, arrayBuffers, rss, liveStreams: openStreams().total() });
}
