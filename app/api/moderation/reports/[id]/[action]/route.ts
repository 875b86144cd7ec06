import { NextResponse } from "next/server";
import { moderationParamsSchema } from "@/lib/forum/schemas";
import { route } from "@/lib/http/route";
import { SAFETY_REACTIONS } from "@/lib/registry/safety";
import { resolveReport } from "@/lib/safety/reports";

/** Admins only: `dismiss` (shown again) or `remove` ("Removed by a moderator") a report's target. */
export const POST = route(
  { access: "admin", params: moderationParamsSchema, paramsMessage: { firstIssue: true } },
  async ({ db, caller, params }) => {
    await resolveReport(db, caller.userId, params.id, params.action, SAFETY_REACTIONS);
    return NextResponse.json({ data: { id: params.id, status: params.action === "dismiss" ? "dismissed" : "removed" } });
  },
);
