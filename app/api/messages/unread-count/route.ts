import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { unreadTotal } from "@/lib/messages/queries";

/** The navigation's badge: the caller's unread messages over all conversations, `{data: {unread_count}}`. */
export const GET = route({ access: "complete-profile" }, async ({ db, couple }) => {
  return NextResponse.json({ data: { unread_count: await unreadTotal(db, couple) } });
});
