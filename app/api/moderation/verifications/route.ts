import { NextResponse } from "next/server";
import { route, searchParams } from "@/lib/http/route";
import { pendingVerifications } from "@/lib/verification/queries";
import { cursorPageSchema } from "@/lib/pagination/schemas";

/** Moderators and admins only: the selfies waiting for a decision, oldest first (keyset pages), each beside the couple's photos. */
export const GET = route({ access: "moderator", input: searchParams(cursorPageSchema) }, async ({ db, moderator, input }) =>
  NextResponse.json(await pendingVerifications(db, moderator, input.cursor)),
);
