import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { listBlocks } from "@/lib/safety/block-list";

/** The couples the caller's couple blocked: `{data: [{coupleId, coupleName, coupleImageUrl, blockedAt}]}`. */
export const GET = route({ access: "complete-profile" }, async ({ db, couple }) => {
  return NextResponse.json({ data: await listBlocks(db, couple) });
});
