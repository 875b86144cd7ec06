import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { moderationQueue } from "@/lib/forum/reports";

/** Moderators and admins only (everyone else: 403): the open reports, oldest first, with their content. */
export const GET = route({ access: "moderator" }, async ({ db, moderator }) =>
  NextResponse.json({ data: await moderationQueue(db, moderator) }),
);
