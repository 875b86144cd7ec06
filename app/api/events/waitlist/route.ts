import { NextResponse } from "next/server";
import { joinWaitlist } from "@/lib/events/service";
import { route } from "@/lib/http/route";

/** 'Notify us when events launch' for the caller's couple (again: still 200). */
export const POST = route({ access: "complete-profile" }, async ({ db, couple }) => {
  return NextResponse.json({ data: await joinWaitlist(db, couple) });
});
