import { NextResponse } from "next/server";
import { route, searchParams } from "@/lib/http/route";
import { openAppeals } from "@/lib/safety/appeals";
import { cursorPageSchema } from "@/lib/pagination/schemas";

/** Moderators and admins only: the open appeals, oldest first (keyset pages). */
export const GET = route({ access: "moderator", input: searchParams(cursorPageSchema) }, async ({ db, moderator, input }) =>
  NextResponse.json(await openAppeals(db, moderator, input.cursor)),
);
