import { NextResponse } from "next/server";
import { jsonBody, route } from "@/lib/http/route";
import { giveFeedback } from "@/lib/plans/feedback";
import { feedbackSchema, planParamsSchema } from "@/lib/plans/schemas";
import { PLAN_LIMITS } from "@/lib/plans/rules";

/** 'How was it?', privately, after the meetup. */
export const PUT = route(
  {
    access: "complete-profile",
    limits: [PLAN_LIMITS.answersPerHour],
    params: planParamsSchema,
    paramsMessage: { firstIssue: true },
    input: jsonBody(feedbackSchema, { firstIssue: true }),
  },
  async ({ db, couple, params, input }) => {
    return NextResponse.json({ data: await giveFeedback(db, couple, params.id, input.answer) });
  },
);
