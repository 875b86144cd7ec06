import { NextResponse } from "next/server";
import { parseWith, readJson } from "@/lib/http/errors";
import { requireCaller } from "@/lib/http/request-auth";
import { apiRoute } from "@/lib/http/route";
import { markRead, markReadSchema } from "@/lib/notifications";

/** PATCH /api/notifications/read with notification_ids or mark_all: true. */
export const PATCH = apiRoute(async (request, db) => {
  const caller = await requireCaller(db, request);
  const target = parseWith(markReadSchema, await readJson(request));
  const marked = await markRead(db, caller.userId, target);
  return NextResponse.json({ success: true, data: { marked_count: marked } });
});
