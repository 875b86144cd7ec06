import { NextResponse } from "next/server";
import { countDirectory } from "@/lib/directory/queries";
import { directoryWhereSchema } from "@/lib/directory/schemas";
import { route, searchParams } from "@/lib/http/route";
import { LIMITS, spendLimits } from "@/lib/rate-limit";

/** How many couples the directory's filters match (the filter sheet's 'Show N couples'): `{data: {count, more}}`, counted up to 1,000. */
export const GET = route(
  { access: "complete-profile", limits: [LIMITS.directoryPerUser], input: searchParams(directoryWhereSchema, { firstIssue: true }) },
  async ({ db, caller, input }) => {
    await spendLimits(db, [[LIMITS.directoryPerUser, caller.userId]]);
    return NextResponse.json(
      { data: await countDirectory(db, caller.userId, input) },
      { headers: { "Cache-Control": "private, no-store" } },
    );
  },
);
