import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { openAppeals } from "@/lib/safety/appeals";

/** Moderators and admins only: the open appeals, oldest first. */
export const GET = route({ access: "moderator" }, async ({ db, moderator }) =>
  NextResponse.json({ data: await openAppeals(db, moderator) }),
);
