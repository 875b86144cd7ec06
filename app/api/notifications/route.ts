import { NextResponse } from "next/server";
import { route, searchParams } from "@/lib/http/route";
import { listQuerySchema } from "@/lib/notifications/schemas";
import { listNotifications } from "@/lib/notifications/queries";

/** GET /api/notifications?limit=&offset=: the caller's notifications, newest first. */
export const GET = route({ access: "signed-in", input: searchParams(listQuerySchema) }, async ({ db, caller, input }) => {
  const page = await listNotifications(db, caller.userId, input);
  return NextResponse.json({ success: true, ...page }, { headers: { "Cache-Control": "no-store" } });
});
