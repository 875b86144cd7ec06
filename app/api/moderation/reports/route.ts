import { NextResponse } from "next/server";
import { route, searchParams } from "@/lib/http/route";
import { moderationQueue } from "@/lib/forum/reports";
import { queuePageSchema } from "@/lib/safety/moderation-schemas";

/** Moderators and admins only (everyone else: 403): the open reports, one row per target, oldest first (keyset pages), with their content. */
export const GET = route({ access: "moderator", input: searchParams(queuePageSchema) }, async ({ db, moderator, input }) =>
  NextResponse.json(await moderationQueue(db, moderator, input.cursor)),
);
