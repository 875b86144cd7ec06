import { NextResponse } from "next/server";
import { listDirectoryMap } from "@/lib/directory/queries";
import { directoryWhereSchema } from "@/lib/directory/schemas";
import { route, searchParams } from "@/lib/http/route";
import { LIMITS, spendLimits } from "@/lib/rate-limit";

/** The directory's map: `{data: [card with its shown point], more}`, the list's first 500 couples for the same filters. */
export const GET = route(
  { access: "complete-profile", limits: [LIMITS.directoryMapPerUser], input: searchParams(directoryWhereSchema, { firstIssue: true }) },
  async ({ db, caller, input }) => {
    await spendLimits(db, [[LIMITS.directoryMapPerUser, caller.userId]]);
    return NextResponse.json(await listDirectoryMap(db, caller.userId, input), { headers: { "Cache-Control": "private, no-store" } });
  },
);
