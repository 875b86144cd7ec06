import { NextResponse } from "next/server";
import { memberOf } from "@/lib/connections/queries";
import { connectionSettingsSchema } from "@/lib/connections/schemas";
import { saveConnectionSettings } from "@/lib/connections/service";
import { jsonBody, route } from "@/lib/http/route";

/** The couple's 'Both of us approve new connections' switch: `{data: {bothApprove}}`. */
export const GET = route({ access: "complete-profile" }, async ({ db, caller }) => {
  const member = await memberOf(db, caller.userId);
  return NextResponse.json({ data: { bothApprove: member.bothApprove } });
});

/** Saved when changed, by either partner. */
export const PUT = route(
  { access: "complete-profile", input: jsonBody(connectionSettingsSchema, { firstIssue: true }) },
  async ({ db, caller, input }) => {
    const member = await memberOf(db, caller.userId);
    return NextResponse.json({ data: await saveConnectionSettings(db, member, input) });
  },
);
