import { NextResponse } from "next/server";
import { connectionSettingsSchema } from "@/lib/connections/schemas";
import { saveConnectionSettings } from "@/lib/connections/service";
import { jsonBody, route } from "@/lib/http/route";
import { LIMITS } from "@/lib/rate-limit";

/** The couple's 'Both of us approve new connections' switch: `{data: {bothApprove}}`. */
export const GET = route({ access: "complete-profile" }, async ({ couple }) => {
  return NextResponse.json({ data: { bothApprove: couple.bothApprove } });
});

/** Saved when changed, by either partner. */
export const PUT = route(
  {
    access: "complete-profile",
    limits: [LIMITS.connectionSettingsPerUser],
    input: jsonBody(connectionSettingsSchema, { firstIssue: true }),
  },
  async ({ db, couple, input }) => {
    return NextResponse.json({ data: await saveConnectionSettings(db, couple, input) });
  },
);
