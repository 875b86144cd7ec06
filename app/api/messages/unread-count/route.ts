import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { messagesBadgeCount } from "@/lib/messages/badge";

/** The navigation's badge: the caller's unread messages plus the hellos awaiting their answer, `{data: {unread_count}}`. */
export const GET = route({ access: "complete-profile" }, async ({ db, couple }) => {
  return NextResponse.json({ data: { unread_count: await messagesBadgeCount(db, couple) } });
});
