import { NextResponse } from "next/server";
import { requireCaller } from "@/lib/http/request-auth";
import { apiRoute } from "@/lib/http/route";
import { unreadCount } from "@/lib/notifications";

/** GET /api/notifications/unread-count: the number on the bell. */
export const GET = apiRoute(async (request, db) => {
  const caller = await requireCaller(db, request);
  const count = await unreadCount(db, caller.userId);
  return NextResponse.json({ success: true, data: { unread_count: count } }, { headers: { "Cache-Control": "no-store" } });
});
