import { NextResponse } from "next/server";
import { route, searchParams } from "@/lib/http/route";
import { moderationQueue } from "@/lib/forum/reports";
import { cursorPageSchema } from "@/lib/pagination/schemas";

/** Moderators and admins only (everyone else: 403): the open reports, one row per target, oldest first (keyset pages), with their content. */
export const GET = route({ access: "moderator", input: searchParams(cursorPageSchema) }, async ({ db, moderator, input }) =>
  NextResponse.json(await moderationQueue(db, moderator, input.cursor)),
);
