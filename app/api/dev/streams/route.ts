import { NextResponse } from "next/server";
import { devOutboxEnabled } from "@/lib/env";
import { route } from "@/lib/http/route";
import { openStreams } from "@/lib/live/open-streams";

/**
 * How many live streams the caller holds open on this instance: the browser tests' proof that a
 * browser's tabs share one. Open only where the development outbox is (this machine's dev server
 * and the browser tests' build), else a 404; it tells the caller nothing about anyone else.
 */
export const GET = route({ access: "signed-in" }, async ({ caller }) => {
  if (!devOutboxEnabled()) return NextResponse.json({ error: { code: "NOT_FOUND", message: "Not found" } }, { status: 404 });
  return NextResponse.json({ open: openStreams().count(caller.userId) }, { headers: { "Cache-Control": "no-store" } });
});
