import { NextResponse } from "next/server";
import { forumActor } from "@/lib/forum/queries";
import { route } from "@/lib/http/route";
import { listBlocks } from "@/lib/safety/blocks";

/** The couples the caller's couple blocked: `{data: [{coupleId, coupleName, coupleImageUrl, blockedAt}]}`. */
export const GET = route({ access: "complete-profile" }, async ({ db, caller }) => {
  return NextResponse.json({ data: await listBlocks(db, await forumActor(db, caller.userId)) });
});
