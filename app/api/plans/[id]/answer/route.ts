import { NextResponse } from "next/server";
import { jsonBody, route } from "@/lib/http/route";
import { answerSchema, planParamsSchema } from "@/lib/plans/schemas";
import { answerPlan } from "@/lib/plans/service";

/** Going, maybe or can't; with the `sequence` seen, refused (409) for a plan changed since. */
export const PUT = route(
  {
    access: "complete-profile",
    params: planParamsSchema,
    paramsMessage: { firstIssue: true },
    input: jsonBody(answerSchema, { firstIssue: true }),
  },
  async ({ db, couple, params, input }) => {
    return NextResponse.json({ data: await answerPlan(db, couple, params.id, input) });
  },
);
