import { NextResponse } from "next/server";
import { jsonBody, route } from "@/lib/http/route";
import { conversationParamsSchema } from "@/lib/messages/schemas";
import { PLAN_LIMITS } from "@/lib/plans/rules";
import { proposePlanSchema } from "@/lib/plans/schemas";
import { plansOfConversation, proposePlan } from "@/lib/plans/service";

const params = { params: conversationParamsSchema, paramsMessage: { firstIssue: true } } as const;

/** The conversation's plans for its thread: upcoming ones and those of the last 30 days. */
export const GET = route({ access: "complete-profile", ...params }, async ({ db, couple, params }) => {
  return NextResponse.json({ data: await plansOfConversation(db, couple, params.id) });
});

/** A plan by one of the four: 201 `{data: plan}`; a restricted couple 403, a person over PLAN_LIMITS 429. */
export const POST = route(
  {
    access: "complete-profile",
    ...params,
    limits: [PLAN_LIMITS.perMinute, PLAN_LIMITS.perDay],
    input: jsonBody(proposePlanSchema, { firstIssue: true }),
  },
  async ({ db, couple, params, input, clientAddress }) => {
    return NextResponse.json({ data: await proposePlan(db, couple, params.id, input, { clientAddress }) }, { status: 201 });
  },
);
