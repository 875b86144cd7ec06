import { NextResponse } from "next/server";
import { moderationParamsSchema } from "@/lib/forum/schemas";
import { route } from "@/lib/http/route";
import { SAFETY_REACTIONS } from "@/lib/registry/safety";
import { resolveReport } from "@/lib/safety/reports";
import { MODERATION_PER_USER } from "@/lib/safety/rules";

/** Moderators and admins only (403 for everyone else), never on their own couple; logged: `dismiss` (shown again) or `remove` ("Removed by a moderator") a report's target. */
export const POST = route(
  { access: "moderator", params: moderationParamsSchema, paramsMessage: { firstIssue: true }, limits: [MODERATION_PER_USER] },
  async ({ db, moderator, params }) => {
    await resolveReport(db, moderator, params.id, params.action, SAFETY_REACTIONS);
    return NextResponse.json({ data: { id: params.id, status: params.action === "dismiss" ? "dismissed" : "removed" } });
  },
);
