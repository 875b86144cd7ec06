import { NextResponse } from "next/server";
import { env } from "@/lib/env";

/**
 * The benchmark's baseline: a route handler that does nothing but answer JSON, in the same build
 * and server as the app (so both pay the same framework cost). `npm run bench` sets BENCH_BARE=1;
 * everywhere else it is a 404.
 */
export function GET(): Response {
  if (!env().BENCH_BARE) return NextResponse.json({ error: { code: "NOT_FOUND", message: "Not found" } }, { status: 404 });
  return NextResponse.json({ ok: true });
}
