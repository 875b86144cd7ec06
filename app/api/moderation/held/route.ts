import { NextResponse } from "next/server";
import { route, searchParams } from "@/lib/http/route";
import { cursorPageSchema } from "@/lib/pagination/schemas";
import { couplesWithHeldHellos } from "@/lib/safety/spam";

/** Moderators and admins only: the couples with held hellos, one row per couple, oldest first (keyset pages); never those held for their own couple. */
export const GET = route({ access: "moderator", input: searchParams(cursorPageSchema) }, async ({ db, moderator, input }) =>
  NextResponse.json(await couplesWithHeldHellos(db, moderator, input.cursor)),
);
