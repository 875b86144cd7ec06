import { NextResponse } from "next/server";
import { env } from "@/lib/env";
import { route } from "@/lib/http/route";
import { planParamsSchema } from "@/lib/plans/schemas";
import { sharePlan, stopSharing } from "@/lib/plans/share";
import { PLAN_LIMITS } from "@/lib/plans/rules";

const declared = {
  access: "complete-profile",
  limits: [PLAN_LIMITS.answersPerHour],
  params: planParamsSchema,
  paramsMessage: { firstIssue: true },
} as const;

/** 'Share with a friend': a new read-only link (the last one stops working; one sent again within a minute answers the same link: sharePlan). */
export const POST = route(declared, async ({ db, couple, params }) => {
  const { path } = await sharePlan(db, couple, params.id);
  return NextResponse.json({ data: { url: new URL(path, env().APP_URL).toString() } }, { status: 201 });
});

/** 'Stop sharing': the link stops working at once. */
export const DELETE = route(declared, async ({ db, couple, params }) => {
  await stopSharing(db, couple, params.id);
  return new NextResponse(null, { status: 204 });
});
