import { NextResponse } from "next/server";
import { jsonBody, route } from "@/lib/http/route";
import { answerSchema, planParamsSchema } from "@/lib/plans/schemas";
import { answerPlan } from "@/lib/plans/service";
import { PLAN_LIMITS } from "@/lib/plans/rules";

/** Going, maybe or can't; with the `sequence` seen, refused (409) for a plan changed since. */
export const PUT = route(
  {
    access: "complete-profile",
    limits: [PLAN_LIMITS.answersPerHour],
    params: planParamsSchema,
    paramsMessage: { firstIssue: true },
    input: jsonBody(answerSchema, { firstIssue: true }),
  },
  async ({ db, couple, params, input }) => {
    return NextResponse.json({ data: await answerPlan(db, couple, params.id, input) });
  },
);
