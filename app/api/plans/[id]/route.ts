import { NextResponse } from "next/server";
import { jsonBody, route } from "@/lib/http/route";
import { planItem } from "@/lib/plans/queries";
import { PLAN_LIMITS } from "@/lib/plans/rules";
import { cancelPlanSchema, changePlanSchema, planParamsSchema } from "@/lib/plans/schemas";
import { cancelPlan, changePlan } from "@/lib/plans/service";

const params = { params: planParamsSchema, paramsMessage: { firstIssue: true } } as const;

/** One plan, as the card shows it. */
export const GET = route({ access: "complete-profile", ...params }, async ({ db, couple, params }) => {
  return NextResponse.json({ data: await planItem(db, couple, params.id) });
});

/** Changes what, when or where: everyone is asked again (a restricted couple 403, a person over PLAN_LIMITS 429). */
export const PATCH = route(
  {
    access: "complete-profile",
    ...params,
    limits: [PLAN_LIMITS.perMinute, PLAN_LIMITS.perDay],
    input: jsonBody(changePlanSchema, { firstIssue: true }),
  },
  async ({ db, couple, params, input, clientAddress }) => {
    return NextResponse.json({ data: await changePlan(db, couple, params.id, input, { clientAddress }) });
  },
);

/** Cancels it (the proposing couple), with an optional reason; the body may be empty. */
export const DELETE = route(
  { access: "complete-profile", ...params, input: jsonBody(cancelPlanSchema, { firstIssue: true }) },
  async ({ db, couple, params, input }) => {
    return NextResponse.json({ data: await cancelPlan(db, couple, params.id, input.reason ?? null) });
  },
);
