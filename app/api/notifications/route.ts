import { NextResponse } from "next/server";
import { parseWith } from "@/lib/http/errors";
import { requireCaller } from "@/lib/http/request-auth";
import { apiRoute } from "@/lib/http/route";
import { listNotifications, listQuerySchema } from "@/lib/notifications";

/** GET /api/notifications?limit=&offset=: the caller's notifications, newest first. */
export const GET = apiRoute(async (request, db) => {
  const caller = await requireCaller(db, request);
  const query = parseWith(listQuerySchema, Object.fromEntries(request.nextUrl.searchParams));
  const page = await listNotifications(db, caller.userId, query);
  return NextResponse.json({ success: true, ...page }, { headers: { "Cache-Control": "no-store" } });
});
