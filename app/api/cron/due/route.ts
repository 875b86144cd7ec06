import { NextResponse } from "next/server";
import { runDueWork } from "@/lib/scheduled/service";
import { route } from "@/lib/http/route";
import { cronAuthorized } from "@/lib/scheduled/cron-auth";

/**
 * POST /api/cron/due: runs the due work (lib/scheduled/service.ts) for a scheduler holding
 * `Authorization: Bearer <CRON_SECRET>`; anything else is refused. GET does the same, since
 * Vercel's cron calls a path with GET.
 */
const handler = route({ access: "public" }, async ({ db, request }) => {
  if (!cronAuthorized(request.headers.get("authorization"))) {
    return NextResponse.json({ error: { code: "UNAUTHENTICATED", message: "Not authenticated" } }, { status: 401 });
  }
  return NextResponse.json({ data: await runDueWork(db) }, { headers: { "Cache-Control": "no-store" } });
});

export const GET = handler;
export const POST = handler;
