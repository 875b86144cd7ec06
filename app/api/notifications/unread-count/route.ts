import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { unreadCount } from "@/lib/notifications/queries";

/** GET /api/notifications/unread-count: the number on the bell. */
export const GET = route({ access: "signed-in" }, async ({ db, caller }) => {
  const count = await unreadCount(db, caller.userId);
  return NextResponse.json({ success: true, data: { unread_count: count } }, { headers: { "Cache-Control": "no-store" } });
});
