import { NextResponse } from "next/server";
import { jsonBody, route } from "@/lib/http/route";
import { pushSettingsSchema } from "@/lib/notifications/push/schemas";
import { getPushChoices, savePushChoices } from "@/lib/notifications/push/subscriptions";
import { PUSH_SETTINGS_LIMIT } from "@/lib/notifications/push/limits";

/** 'Show message previews', and whether the prompt was answered: `{data: {showPreviews, promptDone}}`. */
export const GET = route({ access: "signed-in" }, async ({ db, caller }) => {
  return NextResponse.json({ data: await getPushChoices(db, caller.userId) }, { headers: { "Cache-Control": "no-store" } });
});

export const PUT = route(
  { access: "signed-in", limits: [PUSH_SETTINGS_LIMIT], input: jsonBody(pushSettingsSchema, { firstIssue: true }) },
  async ({ db, caller, input }) => {
    return NextResponse.json({ data: await savePushChoices(db, caller.userId, input) });
  },
);
