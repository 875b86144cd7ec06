import { NextResponse } from "next/server";
import { getPreferences, savePreferences } from "@/lib/notifications/preferences";
import { notificationPreferencesSchema } from "@/lib/notifications/schemas";
import { jsonBody, route } from "@/lib/http/route";
import { LIMITS } from "@/lib/rate-limit";

/** The caller's choices per type: `{data: {reply: {inApp, email}, ...}}`. */
export const GET = route({ access: "signed-in" }, async ({ db, caller }) => {
  return NextResponse.json({ data: await getPreferences(db, caller.userId) }, { headers: { "Cache-Control": "no-store" } });
});

/** Saves the types named in `preferences` (the others stay) and answers them all. */
export const PUT = route(
  {
    access: "signed-in",
    limits: [LIMITS.notificationSettingsPerUser],
    input: jsonBody(notificationPreferencesSchema, { firstIssue: true }),
  },
  async ({ db, caller, input }) => {
    return NextResponse.json({ data: await savePreferences(db, caller.userId, input.preferences) });
  },
);
