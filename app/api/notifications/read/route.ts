import { NextResponse } from "next/server";
import { jsonBody, route } from "@/lib/http/route";
import { markReadSchema } from "@/lib/notifications/schemas";
import { markRead } from "@/lib/notifications/service";
import { LIMITS } from "@/lib/rate-limit";

/** PATCH /api/notifications/read with notification_ids or mark_all: true. */
export const PATCH = route(
  { access: "signed-in", limits: [LIMITS.notificationReadsPerUser], input: jsonBody(markReadSchema) },
  async ({ db, caller, input }) => {
    const marked = await markRead(db, caller.userId, input);
    return NextResponse.json({ success: true, data: { marked_count: marked } });
  },
);
