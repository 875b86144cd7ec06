import { NextResponse } from "next/server";
import { route, searchParams } from "@/lib/http/route";
import { listBlocks } from "@/lib/safety/block-list";
import { cursorPageSchema } from "@/lib/pagination/schemas";

/** The couples the caller's couple blocked, latest first (keyset pages): `{data: [{coupleId, coupleName, coupleImageUrl, blockedAt}], pagination}`. */
export const GET = route({ access: "complete-profile", input: searchParams(cursorPageSchema) }, async ({ db, couple, input }) =>
  NextResponse.json(await listBlocks(db, couple, input.cursor)),
);
