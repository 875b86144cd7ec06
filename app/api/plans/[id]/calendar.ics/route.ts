import { route } from "@/lib/http/route";
import { env } from "@/lib/env";
import { planCalendar } from "@/lib/plans/calendar";
import { planItem } from "@/lib/plans/queries";
import { planParamsSchema } from "@/lib/plans/schemas";

/** 'Add to calendar': the plan as an .ics file (RFC 5545), for the four only. */
export const GET = route(
  { access: "complete-profile", params: planParamsSchema, paramsMessage: { firstIssue: true } },
  async ({ db, couple, params }) => {
    const plan = await planItem(db, couple, params.id);
    return new Response(planCalendar(plan, env().APP_URL), {
      headers: {
        "content-type": "text/calendar; charset=utf-8",
        "content-disposition": 'attachment; filename="plan.ics"',
        "cache-control": "private, no-store",
      },
    });
  },
);
