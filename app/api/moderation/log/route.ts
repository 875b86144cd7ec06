import { NextResponse } from "next/server";
import { route, searchParams } from "@/lib/http/route";
import { moderationLogPage } from "@/lib/safety/moderation-log";
import { logQuerySchema } from "@/lib/safety/moderation-schemas";

/** Moderators and admins only: the moderation log, newest first, filtered by moderator, couple and action (keyset pages). */
export const GET = route({ access: "moderator", input: searchParams(logQuerySchema) }, async ({ db, moderator, input }) =>
  NextResponse.json(
    await moderationLogPage(
      db,
      moderator,
      { moderatorUserId: input.moderator, coupleId: input.couple, action: input.action },
      input.cursor,
    ),
  ),
);
