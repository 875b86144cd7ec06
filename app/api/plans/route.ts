import { NextResponse } from "next/server";
import { route, searchParams } from "@/lib/http/route";
import { upcomingPlans } from "@/lib/plans/queries";
import { plansQuerySchema } from "@/lib/plans/schemas";

/** `GET /api/plans?upcoming=1`: the couple's upcoming plans, soonest first. */
export const GET = route(
  { access: "complete-profile", input: searchParams(plansQuerySchema, { firstIssue: true }) },
  async ({ db, couple }) => {
    return NextResponse.json({ data: await upcomingPlans(db, couple) });
  },
);
