import { NextResponse } from "next/server";
import { FORUM_TOPICS } from "@/lib/forum/rules";
import { route } from "@/lib/http/route";

/** The fixed topic list, in display order: `{data: [{value, label}]}`. */
export const GET = route({ access: "public" }, async () => NextResponse.json({ data: FORUM_TOPICS }));
