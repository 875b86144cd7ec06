import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { moderationQueue } from "@/lib/forum/reports";

/** Admins only (everyone else: 404): the open reports, oldest first, with their content. */
export const GET = route({ access: "admin" }, async ({ db }) => NextResponse.json({ data: await moderationQueue(db) }));
